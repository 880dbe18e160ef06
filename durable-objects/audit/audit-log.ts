import { type HistoryEntry, SESSION_LIMITS } from "../../shared/contract/session";
import { isoTime } from "../../shared/contract/time";
import { log } from "../../shared/log";
import { TeamLimits } from "../limiter/team-limits";
import { type Batch, createBatchTable, unwrittenEntries } from "./batches";
import {
  AUDIT_QUERY_DEFAULT_LIMIT,
  type AuditCursor,
  AuditEntry,
  type AuditPage,
  AuditQuery,
  type AuditUsage,
  AuditUsageRange,
  type CarriedAudit,
  clampRetention,
  parseInput,
  RETENTION_DEFAULT_DAYS,
} from "./entry";
import {
  ENTRY_COLUMNS,
  ENTRY_PLACEHOLDERS,
  type EntryRow,
  entryRowValues,
  KIND_SQL,
  STATUS_SQL,
  toEntry,
} from "./entry-row";
import { aggregateUsage, type SandboxUsage, UsageTables } from "./usage";

const DAY_MS = 86_400_000;

/**
 * One team's audit log (named by the team), in its SQLite database; it also keeps the team's rate
 * limits (TeamLimits: an ended execution's lease and its entries come back in one call). Rows past
 * the retention are deleted on every write and by a daily alarm, never returned by `query`. Each
 * write adds to per-hour and per-day aggregates (`usage_*`), which `usage` reads. Schema: docs/storage-schema.md.
 */
export class AuditLog extends TeamLimits {
  #retention: number | undefined;
  #alarmSet = false;
  readonly #usage: UsageTables;
  /** batches admits carried, not yet written (appendCarried), and the retention they came with */
  readonly #carried: Batch[] = [];
  #carriedDays = RETENTION_DEFAULT_DAYS;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS entries (
      ts INTEGER NOT NULL, request_id TEXT NOT NULL, team TEXT NOT NULL, key_id TEXT NOT NULL,
      session_id TEXT, kind TEXT NOT NULL, tool TEXT NOT NULL, args_sha256 TEXT NOT NULL,
      status TEXT NOT NULL, error TEXT, duration_ms INTEGER NOT NULL, result_bytes INTEGER NOT NULL)`);
    sql.exec("CREATE INDEX IF NOT EXISTS entries_ts ON entries (ts)");
    sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
    createBatchTable(sql);
    // Added after the first release: objects made before get the column (NULL in their old rows).
    const columns = sql.exec<{ name: string }>("PRAGMA table_info(entries)").toArray();
    if (!columns.some((c) => c.name === "tool_calls"))
      sql.exec("ALTER TABLE entries ADD COLUMN tool_calls INTEGER");
    if (!columns.some((c) => c.name === "decided_by"))
      sql.exec("ALTER TABLE entries ADD COLUMN decided_by TEXT");
    if (!columns.some((c) => c.name === "worker")) sql.exec("ALTER TABLE entries ADD COLUMN worker TEXT");
    if (!columns.some((c) => c.name === "user")) sql.exec("ALTER TABLE entries ADD COLUMN user TEXT");
    if (!columns.some((c) => c.name === "trace_id")) sql.exec("ALTER TABLE entries ADD COLUMN trace_id TEXT");
    sql.exec("CREATE INDEX IF NOT EXISTS entries_session ON entries (session_id, ts)");
    // The listing's filters on rare values (errors, cancellations, approvals) read this instead of
    // walking `entries_ts` past every ok tool call; only rows matching its condition are indexed.
    sql.exec(`CREATE INDEX IF NOT EXISTS entries_rare ON entries (ts)
      WHERE status = 'error' OR status = 'cancelled' OR kind = 'approval'`);
    // Aggregates for `usage()`, added after the audit log's first release: an object that had entries
    // before them fills them once from its retained rows.
    this.#usage = new UsageTables(sql);
    if (this.#usage.missing()) ctx.storage.transactionSync(() => this.#usage.create(this.cutoff()));
  }

  /**
   * Returns the `released` leases (TeamLimits.release), then writes entries and their aggregates
   * (`usage_*`, entries within the retention only) in one transaction and drops rows past the
   * retention; invalid entries are skipped. With a `batch` id, entries of a batch already written are
   * not written again.
   */
  async append(
    entries: AuditEntry[],
    retentionDays: number,
    released: string[] = [],
    batch?: string,
  ): Promise<{ written: number; skipped: number }> {
    if (released.length > 0) this.release(released);
    if (entries.length === 0 && this.#carried.length === 0) return { written: 0, skipped: 0 };
    const counts = this.#write([{ id: batch, entries }], retentionDays);
    await this.#armAlarm();
    return counts;
  }

  /**
   * An admit's carried entries (TeamLimits.admit): kept until the limits' write-behind, which writes
   * them with the limits in one transaction (an admit answers without waiting for a write), or an
   * append or a read, which writes them first.
   */
  protected override appendCarried(audit: CarriedAudit): void {
    this.#carried.push(...audit.batches);
    this.#carriedDays = audit.retentionDays;
    this.writeLater();
  }

  /** The write-behind: carried entries and the limits in one transaction, or the limits alone. */
  protected override writeBehind(): void {
    if (this.#carried.length === 0) super.writeBehind();
    else
      try {
        this.#writeCarried();
        this.#armAlarm().catch((err: unknown) => log("error", "audit alarm not set", { error: String(err) }));
      } catch (err) {
        log("error", "audit write failed", { error: String(err) });
        this.writeLater(); // the entries stay carried, for the next window
      }
  }

  /** Carried entries, written before a read. */
  #writeCarried(): void {
    if (this.#carried.length > 0) this.#write([], this.#carriedDays);
  }

  /**
   * The carried batches' and `batches`' valid entries not written before, in one transaction; the
   * changed limits saved with them. A failed transaction leaves the carried batches carried.
   */
  #write(batches: Batch[], retentionDays: number): { written: number; skipped: number } {
    const sql = this.ctx.storage.sql;
    const days = clampRetention(retentionDays);
    const carried = this.#carried.splice(0);
    let written = 0;
    let skipped = 0;
    try {
      this.ctx.storage.transactionSync(() => {
        if (days !== this.#retention) {
          sql.exec(
            "INSERT INTO meta (key, value) VALUES ('retention_days', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            days,
          );
          this.#retention = days;
        }
        const cutoff = this.cutoff();
        const valid = unwrittenEntries(sql, [...carried, ...batches], Date.now()).flatMap((e) => {
          const parsed = AuditEntry.safeParse(e);
          if (!parsed.success) skipped++;
          return parsed.success ? [parsed.data] : [];
        });
        for (const e of valid) {
          sql.exec(
            `INSERT INTO entries (${ENTRY_COLUMNS}) VALUES (${ENTRY_PLACEHOLDERS})`,
            ...entryRowValues(e),
          );
        }
        written = valid.length;
        this.#usage.add(aggregateUsage(valid.filter((e) => e.ts >= cutoff)));
        this.prune(cutoff);
      });
    } catch (err) {
      this.#carried.unshift(...carried);
      throw err;
    }
    if (skipped) log("warn", "audit entries skipped (invalid)", { skipped });
    this.saveHeld(); // after the transaction: a failed one leaves the limits to the write-behind
    return { written, skipped };
  }

  /** The daily alarm that prunes, set once per instance when none is due. */
  async #armAlarm(): Promise<void> {
    if (this.#alarmSet) return;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
    this.#alarmSet = true;
  }

  /** Newest first; `since`/`until` inclusive; rows past the retention are never returned. */
  async query(input: AuditQuery): Promise<AuditEntry[]> {
    const q = parseInput(AuditQuery, input, "audit query");
    return this.#select(q, q.limit ?? AUDIT_QUERY_DEFAULT_LIMIT).map((r) => r.entry);
  }

  /**
   * `query`, a page at a time: `next` is the last row's cursor, given only when another row follows
   * (one more row than `limit` is read); pass it back as `before` for the next page.
   */
  async page(input: AuditQuery): Promise<AuditPage> {
    const q = parseInput(AuditQuery, input, "audit query");
    const limit = q.limit ?? AUDIT_QUERY_DEFAULT_LIMIT;
    const rows = this.#select(q, limit + 1);
    const shown = rows.slice(0, limit);
    const entries = shown.map((r) => r.entry);
    const next = rows.length > limit ? shown.at(-1)?.cursor : undefined;
    return next ? { entries, next } : { entries };
  }

  /**
   * Rows matching `q`, newest first (`ts DESC, rowid DESC`), each with its cursor. Reads
   * `entries_ts` backwards from `until` / `before`, or `entries_rare` when `status` is `error` or
   * `cancelled` or `kind` is `approval`.
   */
  #select(q: AuditQuery, limit: number): Array<{ entry: AuditEntry; cursor: AuditCursor }> {
    this.#writeCarried();
    const where = ["ts >= ?"];
    const params: Array<string | number> = [Math.max(q.since ?? 0, this.cutoff())];
    if (q.until !== undefined) {
      where.push("ts <= ?");
      params.push(q.until);
    }
    if (q.before !== undefined) {
      where.push("ts <= ?", "(ts < ? OR rowid < ?)");
      params.push(q.before.ts, q.before.ts, q.before.rowid);
    }
    if (q.tool !== undefined) {
      where.push("tool = ?");
      params.push(q.tool);
    }
    if (q.kind !== undefined) where.push(KIND_SQL[q.kind]);
    if (q.status !== undefined) where.push(STATUS_SQL[q.status]);
    params.push(limit);
    const rows = this.ctx.storage.sql
      .exec<EntryRow & { rowid: number }>(
        `SELECT rowid, ${ENTRY_COLUMNS} FROM entries WHERE ${where.join(" AND ")} ORDER BY ts DESC, rowid DESC LIMIT ?`,
        ...params,
      )
      .toArray();
    return rows.map((r) => ({ entry: toEntry(r), cursor: { ts: r.ts, rowid: r.rowid } }));
  }

  /**
   * Executions per hour and per UTC day (with duration percentiles) and the most called tools, between
   * `since` and `until` (ms since epoch, inclusive; `since` is raised to the retention's start), from
   * the aggregate tables only (usage.ts).
   */
  async usage(since: number, until: number): Promise<AuditUsage> {
    this.#writeCarried();
    return this.#usage.read(parseInput(AuditUsageRange, { since, until }, "usage range"), this.cutoff());
  }

  /**
   * Executions between `since` and `until` (inclusive, within the retention) and the Dynamic Workers
   * they were billed as: each `load` one, each pool id once per UTC day (Cloudflare counts a
   * Dynamic Worker once per day by its id and code; a pool id names both). Reads the `ts` index.
   */
  async sandboxUsage(since: number, until: number): Promise<SandboxUsage> {
    this.#writeCarried();
    return this.#usage.sandbox(since, until, this.cutoff());
  }

  /**
   * A session's history (contract `session.history()`): its newest executions, newest first, at
   * most SESSION_LIMITS.maxHistory, within the retention. The caller has checked that the session is
   * the team's and live.
   */
  async history(sessionId: string): Promise<HistoryEntry[]> {
    this.#writeCarried();
    const rows = this.ctx.storage.sql
      .exec<Pick<EntryRow, "ts" | "duration_ms" | "tool_calls" | "error" | "result_bytes">>(
        `SELECT ts, duration_ms, tool_calls, error, result_bytes FROM entries
         WHERE session_id = ? AND kind = 'execute' AND ts >= ? ORDER BY ts DESC, rowid DESC LIMIT ?`,
        sessionId,
        this.cutoff(),
        SESSION_LIMITS.maxHistory,
      )
      .toArray();
    return rows.map((r) => ({
      at: isoTime(r.ts),
      durationMs: r.duration_ms,
      toolCalls: r.tool_calls ?? 0,
      ...(r.error !== null ? { error: r.error } : {}),
      resultBytes: r.result_bytes,
    }));
  }

  /**
   * Daily: drops rows (and aggregate rows) past the retention; re-arms while any entries are left (an
   * append arms it again).
   */
  override async alarm(): Promise<void> {
    this.ctx.storage.transactionSync(() => this.prune(this.cutoff()));
    const left = this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM entries").one().n;
    if (left > 0) await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
    else this.#alarmSet = false;
  }

  /** Entries before `cutoff`, and aggregate rows whose hour or day ends at or before it. */
  private prune(cutoff: number): void {
    const sql = this.ctx.storage.sql;
    sql.exec("DELETE FROM entries WHERE ts < ?", cutoff);
    this.#usage.prune(cutoff);
  }

  private cutoff(): number {
    const stored = this.ctx.storage.sql
      .exec<{ value: number }>("SELECT value FROM meta WHERE key = 'retention_days'")
      .toArray()[0]?.value;
    return Date.now() - clampRetention(stored ?? RETENTION_DEFAULT_DAYS) * DAY_MS;
  }
}
