import { isoTime } from "../../shared/contract/time";
import type { AuditEntry, AuditUsage, AuditUsageDay } from "./entry";
import type { EntryRow } from "./entry-row";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const TOP_TOOLS = 10;
export const USAGE_TABLES = ["usage_hours", "usage_days", "usage_durations"] as const;

/**
 * The audit log's aggregates (docs/storage-schema.md): executions per hour, every entry per UTC day,
 * kind and tool, and execution durations per day as a histogram. `AuditLog` adds each append's in its
 * transaction and reads them for `usage()`, never the entries.
 */
export class UsageTables {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * `AuditLog.sandboxUsage`, from the entries (through the `ts` index): executions from `since` (raised
   * to `cutoff`) to `until`, and the Dynamic Workers they were billed as.
   */
  sandbox(since: number, until: number, cutoff: number): SandboxUsage {
    const row = this.sql
      .exec<{ executions: number; loads: number | null; pooled: number }>(
        `SELECT COUNT(*) AS executions, SUM(worker = 'load') AS loads,
           COUNT(DISTINCT CASE WHEN worker != 'load' THEN (ts / ${DAY_MS}) || ' ' || worker END) AS pooled
         FROM entries WHERE kind = 'execute' AND ts >= ? AND ts <= ?`,
        Math.max(since, cutoff),
        until,
      )
      .one();
    const loads = row.loads ?? 0;
    return { executions: row.executions, dynamicWorkers: loads + row.pooled, loads, pooled: row.pooled };
  }

  /** Whether any of the tables is missing (an object made before them). */
  missing(): boolean {
    return USAGE_TABLES.some((t) => this.sql.exec(`PRAGMA table_info(${t})`).toArray().length === 0);
  }

  /** Creates the tables and fills them from the entries at or after `cutoff` (inside the caller's transaction). */
  create(cutoff: number): void {
    const sql = this.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS usage_hours (
      hour INTEGER PRIMARY KEY, executions INTEGER NOT NULL, errors INTEGER NOT NULL,
      tool_calls INTEGER NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS usage_days (
      day INTEGER NOT NULL, kind TEXT NOT NULL, tool TEXT NOT NULL, calls INTEGER NOT NULL,
      errors INTEGER NOT NULL, PRIMARY KEY (day, kind, tool)) WITHOUT ROWID`);
    sql.exec(`CREATE TABLE IF NOT EXISTS usage_durations (
      day INTEGER NOT NULL, bucket INTEGER NOT NULL, n INTEGER NOT NULL,
      PRIMARY KEY (day, bucket)) WITHOUT ROWID`);
    // One of them may have been there: start all three from the entries, so they agree.
    for (const t of USAGE_TABLES) sql.exec(`DELETE FROM ${t}`);
    const rows = sql.exec<Pick<EntryRow, "ts" | "kind" | "tool" | "status" | "duration_ms" | "tool_calls">>(
      "SELECT ts, kind, tool, status, duration_ms, tool_calls FROM entries WHERE ts >= ?",
      cutoff,
    );
    this.add(aggregateUsage(usageSources(rows)));
  }

  /** Adds an append's aggregates to the tables (inside the caller's transaction). */
  add(usage: UsageAggregates): void {
    const sql = this.sql;
    for (const h of usage.hours)
      sql.exec(
        `INSERT INTO usage_hours (hour, executions, errors, tool_calls) VALUES (?, ?, ?, ?)
         ON CONFLICT (hour) DO UPDATE SET executions = executions + excluded.executions,
           errors = errors + excluded.errors, tool_calls = tool_calls + excluded.tool_calls`,
        h.hour,
        h.executions,
        h.errors,
        h.toolCalls,
      );
    for (const d of usage.days)
      sql.exec(
        `INSERT INTO usage_days (day, kind, tool, calls, errors) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (day, kind, tool) DO UPDATE SET calls = calls + excluded.calls,
           errors = errors + excluded.errors`,
        d.day,
        d.kind,
        d.tool,
        d.calls,
        d.errors,
      );
    for (const d of usage.durations)
      sql.exec(
        `INSERT INTO usage_durations (day, bucket, n) VALUES (?, ?, ?)
         ON CONFLICT (day, bucket) DO UPDATE SET n = n + excluded.n`,
        d.day,
        d.bucket,
        d.n,
      );
  }

  /**
   * Executions per hour and per UTC day (with duration percentiles) and the most called tools, between
   * `since` and `until` (ms since epoch, inclusive; `since` is raised to the retention's start). Reads
   * only the aggregate tables: the range's hours, its days' `usage_days` and `usage_durations` rows,
   * never `entries`. `days` sum the hours of each day in the range (from the retention's start
   * hour), `topTools` its days; `hours` only the hours the range touches.
   */
  read(range: { since: number; until: number }, cutoff: number): AuditUsage {
    const from = Math.max(range.since, cutoff);
    if (from > range.until) return { hours: [], days: [], topTools: [] };
    const sql = this.sql;
    const firstHour = Math.floor(from / HOUR_MS);
    const lastHour = Math.floor(range.until / HOUR_MS);
    const firstDay = Math.floor(from / DAY_MS);
    const lastDay = Math.floor(range.until / DAY_MS);

    const hourRows = sql
      .exec<{ hour: number; executions: number; errors: number; tool_calls: number }>(
        "SELECT hour, executions, errors, tool_calls FROM usage_hours WHERE hour >= ? AND hour <= ? ORDER BY hour",
        Math.max(firstDay * 24, Math.floor(cutoff / HOUR_MS)),
        lastDay * 24 + 23,
      )
      .toArray();
    const hours = hourRows
      .filter((h) => h.hour >= firstHour && h.hour <= lastHour)
      .map((h) => ({ hour: h.hour * HOUR_MS, executions: h.executions, errors: h.errors }));

    const histograms = new Map<number, Array<{ bucket: number; n: number }>>();
    for (const d of sql.exec<{ day: number; bucket: number; n: number }>(
      "SELECT day, bucket, n FROM usage_durations WHERE day >= ? AND day <= ? ORDER BY day, bucket",
      firstDay,
      lastDay,
    )) {
      const buckets = histograms.get(d.day) ?? [];
      buckets.push({ bucket: d.bucket, n: d.n });
      histograms.set(d.day, buckets);
    }
    const perDay = new Map<number, { executions: number; errors: number; toolCalls: number }>();
    for (const h of hourRows) {
      const day = Math.floor(h.hour / 24);
      const sum = perDay.get(day) ?? { executions: 0, errors: 0, toolCalls: 0 };
      sum.executions += h.executions;
      sum.errors += h.errors;
      sum.toolCalls += h.tool_calls;
      perDay.set(day, sum);
    }
    const days: AuditUsageDay[] = [...perDay]
      .filter(([, sum]) => sum.executions > 0 || sum.toolCalls > 0)
      .map(([day, sum]) => {
        const buckets = histograms.get(day) ?? [];
        return {
          day: isoTime(day * DAY_MS).slice(0, 10),
          ...sum,
          p50Ms: histogramPercentile(buckets, 0.5),
          p95Ms: histogramPercentile(buckets, 0.95),
        };
      });

    const topTools = sql
      .exec<{ tool: string; total: number; failed: number }>(
        `SELECT tool, SUM(calls) AS total, SUM(errors) AS failed FROM usage_days
         WHERE day >= ? AND day <= ? AND kind = 'tool_call' GROUP BY tool ORDER BY total DESC, tool LIMIT ?`,
        firstDay,
        lastDay,
        TOP_TOOLS,
      )
      .toArray()
      .map((t) => ({ tool: t.tool, calls: t.total, errors: t.failed }));
    return { hours, days, topTools };
  }

  /** Rows whose hour or day ends at or before `cutoff`. */
  prune(cutoff: number): void {
    this.sql.exec("DELETE FROM usage_hours WHERE hour < ?", Math.floor(cutoff / HOUR_MS));
    this.sql.exec("DELETE FROM usage_days WHERE day < ?", Math.floor(cutoff / DAY_MS));
    this.sql.exec("DELETE FROM usage_durations WHERE day < ?", Math.floor(cutoff / DAY_MS));
  }
}

/** What the aggregates read of an entry. */
export type UsageSource = Pick<AuditEntry, "ts" | "kind" | "tool" | "status" | "durationMs" | "toolCalls">;

/** An append's (or a backfill's) additions to the aggregate tables, one element per row to add to. */
export interface UsageAggregates {
  /** `usage_hours`: `execute` entries by `floor(ts / 1 h)` */
  hours: Array<{ hour: number; executions: number; errors: number; toolCalls: number }>;
  /** `usage_days`: every entry by `floor(ts / 1 day)` (UTC), kind and tool */
  days: Array<{ day: number; kind: AuditEntry["kind"]; tool: string; calls: number; errors: number }>;
  /** `usage_durations`: `execute` entries by UTC day and `durationBucket(durationMs)` */
  durations: Array<{ day: number; bucket: number; n: number }>;
}

/**
 * Sums entries into aggregate rows (ascending by key); `append` adds each append's, and an object that
 * had entries before the tables existed adds its retained entries' once. Errors count status
 * `error` only (a cancelled execution is not an error).
 */
export function aggregateUsage(entries: Iterable<UsageSource>): UsageAggregates {
  const hours = new Map<number, UsageAggregates["hours"][number]>();
  const days = new Map<string, UsageAggregates["days"][number]>();
  const durations = new Map<string, UsageAggregates["durations"][number]>();
  for (const e of entries) {
    const error = e.status === "error" ? 1 : 0;
    const day = Math.floor(e.ts / DAY_MS);
    const dayKey = JSON.stringify([day, e.kind, e.tool]);
    const d = days.get(dayKey) ?? { day, kind: e.kind, tool: e.tool, calls: 0, errors: 0 };
    d.calls += 1;
    d.errors += error;
    days.set(dayKey, d);
    if (e.kind !== "execute") continue;
    const hour = Math.floor(e.ts / HOUR_MS);
    const h = hours.get(hour) ?? { hour, executions: 0, errors: 0, toolCalls: 0 };
    h.executions += 1;
    h.errors += error;
    h.toolCalls += e.toolCalls ?? 0;
    hours.set(hour, h);
    const bucket = durationBucket(e.durationMs);
    const bucketKey = `${day} ${bucket}`;
    const b = durations.get(bucketKey) ?? { day, bucket, n: 0 };
    b.n += 1;
    durations.set(bucketKey, b);
  }
  return {
    hours: [...hours.values()].sort((a, b) => a.hour - b.hour),
    days: [...days.values()].sort((a, b) => a.day - b.day || cmp(a.kind, b.kind) || cmp(a.tool, b.tool)),
    durations: [...durations.values()].sort((a, b) => a.day - b.day || a.bucket - b.bucket),
  };
}

/**
 * Quarter-octave histogram bucket of a duration: `floor(4 * log2(ms + 1))`: 0 ms → 0, 1 s → 39,
 * 1 min → 63, 120 s (the default EXEC_MAX_TIMEOUT_MS) → 67, 15 min (its ceiling) → 79; so a day
 * holds at most 68 buckets by default, 80 at most.
 */
export function durationBucket(ms: number): number {
  return Math.floor(4 * Math.log2(Math.max(ms, 0) + 1));
}

/**
 * The largest duration a bucket holds, `2^((bucket + 1) / 4) - 1` rounded: what a percentile read
 * from the histogram reports. A bucket spans a factor of 2^(1/4) ≈ 1.19 in `ms + 1`, so the figure is
 * at most ~19 % above the true percentile (in `ms + 1`), and never below it.
 */
export function bucketUpperMs(bucket: number): number {
  return Math.round(2 ** ((bucket + 1) / 4) - 1);
}

/**
 * The nearest-rank percentile `p` (0–1) of a histogram (buckets ascending), as its bucket's upper
 * bound; null for an empty one.
 */
export function histogramPercentile(
  buckets: ReadonlyArray<{ bucket: number; n: number }>,
  p: number,
): number | null {
  const total = buckets.reduce((sum, b) => sum + b.n, 0);
  if (total === 0) return null;
  // nearest rank; the epsilon keeps 0.95 × 60 (57.000…01 in floating point) at rank 57
  const rank = Math.max(1, Math.ceil(p * total - 1e-9));
  let seen = 0;
  for (const b of buckets) {
    seen += b.n;
    if (seen >= rank) return bucketUpperMs(b.bucket);
  }
  return null;
}

function* usageSources(
  rows: Iterable<Pick<EntryRow, "ts" | "kind" | "tool" | "status" | "duration_ms" | "tool_calls">>,
): Generator<UsageSource> {
  for (const r of rows)
    yield {
      ts: r.ts,
      kind: r.kind as AuditEntry["kind"],
      tool: r.tool,
      status: r.status as AuditEntry["status"],
      durationMs: r.duration_ms,
      ...(r.tool_calls !== null ? { toolCalls: r.tool_calls } : {}),
    };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `AuditLog.sandboxUsage`: `pooled` counts a warm worker's id once per UTC day. */
export interface SandboxUsage {
  executions: number;
  dynamicWorkers: number;
  loads: number;
  pooled: number;
}
