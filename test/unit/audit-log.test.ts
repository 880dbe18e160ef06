import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "../../durable-objects/audit/audit-log";
import type { AuditCursor } from "../../durable-objects/audit/entry";
import {
  aggregateUsage,
  bucketUpperMs,
  durationBucket,
  histogramPercentile,
} from "../../durable-objects/audit/usage";
import type { AuditEntry, AuditQuery } from "../../workers/gateway/audit";
import {
  auditLogOf,
  auditNamespace,
  canonicalJson,
  jsonBytes,
  recordAudit,
  retentionDays,
  sessionHistory,
  sha256Hex,
} from "../../workers/gateway/audit";

const DAY = 86_400_000;
/** a history entry's time: ISO text (shared/contract/time.ts) */
const iso = (ms: number) => new Date(ms).toISOString();
const log = (team: string) => auditLogOf(auditNamespace(env)!, team);

let n = 0;
const entry = (team: string, over: Partial<AuditEntry> = {}): AuditEntry => ({
  ts: Date.now(),
  requestId: `req-${++n}`,
  team,
  keyId: "key-1",
  kind: "tool_call",
  tool: "demo.list_tickets",
  argsSha256: "0".repeat(64),
  status: "ok",
  durationMs: 5,
  resultBytes: 10,
  ...over,
});

const rowCount = (team: string) =>
  runInDurableObject(
    log(team),
    (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM entries").one().n,
  );

describe("AuditLog object", () => {
  it("reads a session's history: its executions only, newest first, at most 100", async () => {
    const t = Date.now() - 10_000;
    const stub = log("hist");
    await stub.append(
      [
        ...Array.from({ length: 103 }, (_, i) =>
          entry("hist", { ts: t + i, sessionId: "s1", kind: "execute", tool: "execute", toolCalls: i % 4 }),
        ),
        entry("hist", { ts: t + 200, sessionId: "s1" }),
        entry("hist", { ts: t + 201, sessionId: "s2", kind: "execute", tool: "execute", toolCalls: 9 }),
        entry("hist", {
          ts: t + 202,
          sessionId: "s1",
          kind: "execute",
          tool: "execute",
          status: "error",
          error: "TimeoutError",
          resultBytes: 0,
        }),
      ],
      30,
    );
    const history = await stub.history("s1");
    expect(history).toHaveLength(100);
    expect(history[0]).toEqual({
      at: iso(t + 202),
      durationMs: 5,
      toolCalls: 0,
      error: "TimeoutError",
      resultBytes: 0,
    });
    expect(history[1]).toEqual({ at: iso(t + 102), durationMs: 5, toolCalls: 2, resultBytes: 10 });
    expect(history.at(-1)?.at).toBe(iso(t + 4));
    expect(await stub.history("s2")).toEqual([
      { at: iso(t + 201), durationMs: 5, toolCalls: 9, resultBytes: 10 },
    ]);
    expect(await stub.history("none")).toEqual([]);
  });

  it("returns newest first (ties in insertion order, latest first) and filters", async () => {
    const t = Date.now();
    const stub = log("q");
    await stub.append(
      [
        entry("q", { ts: t - 3000, requestId: "a" }),
        entry("q", { ts: t - 2000, requestId: "b", tool: "demo.get_ticket" }),
        entry("q", { ts: t - 1000, requestId: "c", kind: "execute", tool: "execute" }),
        entry("q", { ts: t - 1000, requestId: "d" }),
      ],
      30,
    );
    const ids = (rows: AuditEntry[]) => rows.map((r) => r.requestId);
    expect(ids(await stub.query({}))).toEqual(["d", "c", "b", "a"]);
    expect(ids(await stub.query({ tool: "demo.list_tickets" }))).toEqual(["d", "a"]);
    expect(ids(await stub.query({ since: t - 2000 }))).toEqual(["d", "c", "b"]);
    expect(ids(await stub.query({ until: t - 2000 }))).toEqual(["b", "a"]);
    expect(ids(await stub.query({ since: t - 2500, until: t - 1500 }))).toEqual(["b"]);
    expect(ids(await stub.query({ limit: 2 }))).toEqual(["d", "c"]);
    expect((await stub.query({}))[0]).toEqual(entry("q", { ts: t - 1000, requestId: "d" }));
  });

  it("defaults to 100 rows and holds the limit to 1000", async () => {
    const stub = log("many");
    await stub.append(
      Array.from({ length: 150 }, () => entry("many")),
      30,
    );
    expect(await stub.query({})).toHaveLength(100);
    expect(await stub.query({ limit: 1000 })).toHaveLength(150);
    await stub.append(
      Array.from({ length: 900 }, () => entry("many")),
      30,
    );
    expect(await stub.query({ limit: 5000 })).toHaveLength(1000);
    expect(await stub.query({ limit: 0 })).toHaveLength(1);
  });

  it("skips invalid entries and keeps the rest", async () => {
    const stub = log("invalid");
    const bad = { ...entry("invalid"), argsSha256: "not a hash" };
    expect(await stub.append([bad, entry("invalid")], 30)).toEqual({ written: 1, skipped: 1 });
  });

  it("deletes rows past the retention on append, and never returns them", async () => {
    const stub = log("retain");
    await stub.append([entry("retain", { ts: Date.now() - 31 * DAY }), entry("retain")], 30);
    expect(await rowCount("retain")).toBe(1);
    await stub.append([entry("retain", { ts: Date.now() - 8 * DAY })], 30);
    expect(await rowCount("retain")).toBe(2);
    // a shorter retention applies from the next append, and to reads at once
    await stub.append([entry("retain")], 7);
    expect(await rowCount("retain")).toBe(2);
    expect(await stub.query({})).toHaveLength(2);
  });

  it("hides rows past the retention from queries before they are pruned", async () => {
    const stub = log("hidden");
    await stub.append([entry("hidden")], 30);
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec(
        "INSERT INTO entries SELECT ? AS ts, request_id, team, key_id, session_id, kind, tool, args_sha256, status, error, duration_ms, result_bytes, tool_calls, decided_by, worker FROM entries",
        Date.now() - 40 * DAY,
      );
    });
    expect(await rowCount("hidden")).toBe(2);
    expect(await stub.query({})).toHaveLength(1);
  });

  it("enforces the retention daily by alarm, without writes", async () => {
    const stub = log("alarmed");
    await stub.append([entry("alarmed")], 30);
    const armed = await runInDurableObject(stub, (_i, state) => state.storage.getAlarm());
    expect(armed).toBeGreaterThan(Date.now() + DAY - 60_000);
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec("UPDATE entries SET ts = ?", Date.now() - 31 * DAY);
      state.storage.sql.exec(
        "INSERT INTO entries SELECT ? AS ts, request_id, team, key_id, session_id, kind, tool, args_sha256, status, error, duration_ms, result_bytes, tool_calls, decided_by, worker FROM entries",
        Date.now() - DAY,
      );
    });
    expect(await rowCount("alarmed")).toBe(2);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await rowCount("alarmed")).toBe(1);
    // rows left: armed again for tomorrow
    expect(await runInDurableObject(stub, (_i, state) => state.storage.getAlarm())).toBeGreaterThan(
      Date.now(),
    );
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec("UPDATE entries SET ts = ?", Date.now() - 31 * DAY);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await rowCount("alarmed")).toBe(0);
    // nothing left: no alarm until the next append
    expect(await runInDurableObject(stub, (_i, state) => state.storage.getAlarm())).toBeNull();
    await stub.append([entry("alarmed")], 30);
    expect(await runInDurableObject(stub, (_i, state) => state.storage.getAlarm())).toBeGreaterThan(
      Date.now() + DAY - 60_000,
    );
  });
});

const HOUR = 3_600_000;
/** the UTC day `d` days before today's, as ms of its start (inside a 30-day retention) */
const dayStart = (d: number) => (Math.floor(Date.now() / DAY) - d) * DAY;
const isoDay = (ms: number) => iso(ms).slice(0, 10);
const execution = (team: string, over: Partial<AuditEntry> = {}) =>
  entry(team, { kind: "execute", tool: "execute", ...over });

/** An aggregate table's rows in key order, as the object holds them. */
const tableRows = (team: string, table: "usage_hours" | "usage_days" | "usage_durations") =>
  runInDurableObject(log(team), (_i, state) =>
    state.storage.sql
      .exec(
        `SELECT * FROM ${table} ORDER BY ${table === "usage_hours" ? "hour" : table === "usage_days" ? "day, kind, tool" : "day, bucket"}`,
      )
      .toArray(),
  );

/** A call's error message ("resolved" when it did not fail). */
const failure = (call: Promise<unknown>) =>
  call.then(
    () => "resolved",
    (e: unknown) => String(e),
  );

describe("AuditLog usage aggregates", () => {
  it("counts executions per hour, entries per day, kind and tool, in every append", async () => {
    const d0 = dayStart(2);
    const d1 = dayStart(1);
    const stub = log("agg");
    await stub.append(
      [
        execution("agg", { ts: d0 + HOUR + 5 * 60_000, toolCalls: 3, durationMs: 10 }),
        entry("agg", { ts: d0 + HOUR + 6 * 60_000, tool: "demo.a" }),
        entry("agg", { ts: d0 + HOUR + 7 * 60_000, tool: "demo.a", status: "error", error: "UpstreamError" }),
        entry("agg", {
          ts: d0 + HOUR + 8 * 60_000,
          kind: "approval",
          tool: "demo.a",
          status: "error",
          error: "ApprovalDeniedError",
        }),
      ],
      30,
    );
    // a second append adds to the same hour and day rows
    await stub.append(
      [
        execution("agg", {
          ts: d0 + HOUR + 50 * 60_000,
          status: "error",
          error: "TimeoutError",
          toolCalls: 1,
          durationMs: 100,
        }),
        execution("agg", { ts: d0 + 3 * HOUR, status: "cancelled", durationMs: 1000 }),
        entry("agg", { ts: d0 + 3 * HOUR + 1, tool: "demo.b" }),
        execution("agg", { ts: d1 + 2 * HOUR, toolCalls: 2, durationMs: 5 }),
        entry("agg", { ts: d1 + 2 * HOUR + 1, tool: "demo.b" }),
      ],
      30,
    );
    const h0 = d0 / HOUR;
    expect(await tableRows("agg", "usage_hours")).toEqual([
      { hour: h0 + 1, executions: 2, errors: 1, tool_calls: 4 },
      // cancelled is not an error; an execution without toolCalls adds 0
      { hour: h0 + 3, executions: 1, errors: 0, tool_calls: 0 },
      { hour: d1 / HOUR + 2, executions: 1, errors: 0, tool_calls: 2 },
    ]);
    const day0 = d0 / DAY;
    const day1 = d1 / DAY;
    expect(await tableRows("agg", "usage_days")).toEqual([
      { day: day0, kind: "approval", tool: "demo.a", calls: 1, errors: 1 },
      { day: day0, kind: "execute", tool: "execute", calls: 3, errors: 1 },
      { day: day0, kind: "tool_call", tool: "demo.a", calls: 2, errors: 1 },
      { day: day0, kind: "tool_call", tool: "demo.b", calls: 1, errors: 0 },
      { day: day1, kind: "execute", tool: "execute", calls: 1, errors: 0 },
      { day: day1, kind: "tool_call", tool: "demo.b", calls: 1, errors: 0 },
    ]);
    // floor(4 * log2(ms + 1)): 10 ms → 13, 100 ms → 26, 1000 ms → 39, 5 ms → 10
    expect(await tableRows("agg", "usage_durations")).toEqual([
      { day: day0, bucket: 13, n: 1 },
      { day: day0, bucket: 26, n: 1 },
      { day: day0, bucket: 39, n: 1 },
      { day: day1, bucket: 10, n: 1 },
    ]);

    expect(await stub.usage(d0, d1 + DAY - 1)).toEqual({
      hours: [
        { hour: d0 + HOUR, executions: 2, errors: 1 },
        { hour: d0 + 3 * HOUR, executions: 1, errors: 0 },
        { hour: d1 + 2 * HOUR, executions: 1, errors: 0 },
      ],
      days: [
        // p50: the 2nd of 3 (100 ms, bucket 26 → 107); p95: the 3rd (1000 ms, bucket 39 → 1023)
        { day: isoDay(d0), executions: 3, errors: 1, toolCalls: 4, p50Ms: 107, p95Ms: 1023 },
        { day: isoDay(d1), executions: 1, errors: 0, toolCalls: 2, p50Ms: 6, p95Ms: 6 },
      ],
      topTools: [
        { tool: "demo.a", calls: 2, errors: 1 },
        { tool: "demo.b", calls: 2, errors: 0 },
      ],
    });
    // hours: only those the range touches; days and tools: whole days
    expect(await stub.usage(d0 + HOUR + 30 * 60_000, d0 + 3 * HOUR)).toEqual({
      hours: [
        { hour: d0 + HOUR, executions: 2, errors: 1 },
        { hour: d0 + 3 * HOUR, executions: 1, errors: 0 },
      ],
      days: [{ day: isoDay(d0), executions: 3, errors: 1, toolCalls: 4, p50Ms: 107, p95Ms: 1023 }],
      topTools: [
        { tool: "demo.a", calls: 2, errors: 1 },
        { tool: "demo.b", calls: 1, errors: 0 },
      ],
    });
    expect(await stub.usage(d1 + 3 * HOUR, d1 + DAY - 1)).toEqual({
      hours: [],
      days: [{ day: isoDay(d1), executions: 1, errors: 0, toolCalls: 2, p50Ms: 6, p95Ms: 6 }],
      topTools: [{ tool: "demo.b", calls: 1, errors: 0 }],
    });
    expect(await log("agg-none").usage(0, Date.now())).toEqual({ hours: [], days: [], topTools: [] });
  });

  it("reads p50 and p95 as the bucket's upper bound, within 19 %", async () => {
    const d0 = dayStart(3);
    const stub = log("pct");
    // durations 1..100 ms, shuffled across hours of one day
    await stub.append(
      Array.from({ length: 100 }, (_, i) =>
        execution("pct", { ts: d0 + ((i * 7) % 24) * HOUR, durationMs: ((i * 37) % 100) + 1 }),
      ),
      30,
    );
    const [day] = (await stub.usage(d0, d0)).days;
    // the 50th is 50 ms (bucket 22 → 53), the 95th 95 ms (bucket 26 → 107)
    expect(day).toEqual({ day: isoDay(d0), executions: 100, errors: 0, toolCalls: 0, p50Ms: 53, p95Ms: 107 });
    expect(day?.p50Ms).toBeGreaterThanOrEqual(50);
    expect(day?.p50Ms).toBeLessThanOrEqual(50 * 1.19);
    expect(day?.p95Ms).toBeGreaterThanOrEqual(95);
    expect(day?.p95Ms).toBeLessThanOrEqual(95 * 1.19);
  });

  it("buckets durations in quarter octaves whose upper bound is within 19 %", () => {
    expect([0, 1, 2, 10, 100, 1000, 60_000].map(durationBucket)).toEqual([0, 4, 6, 13, 26, 39, 63]);
    for (let ms = 0; ms <= 200_000; ms += ms < 1000 ? 1 : 97) {
      const upper = bucketUpperMs(durationBucket(ms));
      expect(upper).toBeGreaterThanOrEqual(ms);
      expect(upper + 1).toBeLessThanOrEqual(Math.ceil((ms + 1) * 2 ** 0.25));
    }
    expect(histogramPercentile([], 0.5)).toBeNull();
    expect(histogramPercentile([{ bucket: 4, n: 1 }], 0.95)).toBe(1);
    const buckets = [
      { bucket: 10, n: 94 },
      { bucket: 30, n: 6 },
    ];
    expect(histogramPercentile(buckets, 0.5)).toBe(bucketUpperMs(10));
    expect(histogramPercentile(buckets, 0.94)).toBe(bucketUpperMs(10));
    expect(histogramPercentile(buckets, 0.95)).toBe(bucketUpperMs(30));
  });

  it("ranks the ten most called tools, most first, ties by name, errors counted", async () => {
    const d0 = dayStart(5);
    const stub = log("top");
    // tool tNN gets NN calls, split over two days; t03 and t12 also have errors
    const rows = Array.from({ length: 12 }, (_, t) => t + 1).flatMap((calls) =>
      Array.from({ length: calls }, (_, i) =>
        entry("top", {
          ts: d0 + (i % 2) * DAY + i,
          tool: `demo.t${String(calls).padStart(2, "0")}`,
          ...((calls === 3 || calls === 12) && i === 0 ? { status: "error", error: "UpstreamError" } : {}),
        }),
      ),
    );
    // a tie with t05, and other kinds that never count as tool calls
    rows.push(
      ...Array.from({ length: 5 }, (_, i) => entry("top", { ts: d0 + i, tool: "demo.a05" })),
      ...Array.from({ length: 50 }, (_, i) => execution("top", { ts: d0 + i })),
      ...Array.from({ length: 50 }, (_, i) =>
        entry("top", { ts: d0 + i, kind: "approval", tool: "demo.zz" }),
      ),
    );
    await stub.append(rows, 30);
    const { topTools } = await stub.usage(d0, d0 + DAY);
    expect(topTools).toEqual([
      { tool: "demo.t12", calls: 12, errors: 1 },
      { tool: "demo.t11", calls: 11, errors: 0 },
      { tool: "demo.t10", calls: 10, errors: 0 },
      { tool: "demo.t09", calls: 9, errors: 0 },
      { tool: "demo.t08", calls: 8, errors: 0 },
      { tool: "demo.t07", calls: 7, errors: 0 },
      { tool: "demo.t06", calls: 6, errors: 0 },
      { tool: "demo.a05", calls: 5, errors: 0 },
      { tool: "demo.t05", calls: 5, errors: 0 },
      { tool: "demo.t04", calls: 4, errors: 0 },
    ]);
    // one day only: the calls made on it (tNN's odd-numbered calls; t10 and t11 tie at 5)
    expect((await stub.usage(d0 + DAY, d0 + DAY)).topTools.slice(0, 3)).toEqual([
      { tool: "demo.t12", calls: 6, errors: 0 },
      { tool: "demo.t10", calls: 5, errors: 0 },
      { tool: "demo.t11", calls: 5, errors: 0 },
    ]);
  });

  it("prunes aggregate rows with the retention, on append and by alarm, and never reads past it", async () => {
    const now = Date.now();
    const stub = log("agg-prune");
    const old = now - 8 * DAY;
    await stub.append(
      [
        execution("agg-prune", { ts: old, toolCalls: 1 }),
        entry("agg-prune", { ts: old + 1 }),
        // past the retention already: neither kept nor counted
        execution("agg-prune", { ts: now - 31 * DAY }),
        // just past it, in the hour (and day) the cutoff falls in, whose rows are kept: still not counted
        execution("agg-prune", { ts: now - 30 * DAY - 1 }),
        execution("agg-prune", { ts: now }),
        entry("agg-prune", { ts: now + 1 }),
      ],
      30,
    );
    expect((await stub.usage(0, now + 1)).days.map((d) => d.day)).toEqual([isoDay(old), isoDay(now)]);
    expect(await tableRows("agg-prune", "usage_hours")).toHaveLength(2);
    // a 7-day retention: the day 8 days ago ends before the cutoff, so its rows go
    await stub.append([entry("agg-prune", { ts: now + 2 })], 7);
    const cutoffDay = Math.floor((now - 7 * DAY) / DAY);
    for (const table of ["usage_hours", "usage_days", "usage_durations"] as const) {
      const rows = await tableRows("agg-prune", table);
      expect(rows.length, table).toBeGreaterThan(0);
      for (const r of rows)
        expect(table === "usage_hours" ? Number(r.hour) / 24 : Number(r.day), table).toBeGreaterThanOrEqual(
          cutoffDay,
        );
    }
    expect(await stub.usage(0, now + 2)).toEqual({
      hours: [{ hour: Math.floor(now / HOUR) * HOUR, executions: 1, errors: 0 }],
      days: [{ day: isoDay(now), executions: 1, errors: 0, toolCalls: 0, p50Ms: 6, p95Ms: 6 }],
      topTools: [{ tool: "demo.list_tickets", calls: 2, errors: 0 }],
    });

    // rows older than the retention that no append has pruned yet: never read; the alarm drops them
    const stale = Math.floor((now - 9 * DAY) / DAY);
    const kept = Math.floor((now - 7 * DAY) / DAY) + 1;
    await runInDurableObject(stub, (_i, state) => {
      const sql = state.storage.sql;
      for (const day of [stale, kept]) {
        sql.exec("INSERT INTO usage_hours VALUES (?, 1, 1, 1)", day * 24 + 5);
        sql.exec("INSERT INTO usage_days VALUES (?, 'tool_call', 'demo.stale', 99, 0)", day);
        sql.exec("INSERT INTO usage_durations VALUES (?, 3, 1)", day);
      }
    });
    const seen = await stub.usage(0, now + 2);
    expect(seen.hours.map((h) => h.hour)).toEqual([kept * DAY + 5 * HOUR, Math.floor(now / HOUR) * HOUR]);
    expect(seen.topTools[0]).toEqual({ tool: "demo.stale", calls: 99, errors: 0 });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const days = await tableRows("agg-prune", "usage_days");
    expect(days.filter((r) => r.tool === "demo.stale").map((r) => r.day)).toEqual([kept]);
    expect((await tableRows("agg-prune", "usage_hours")).map((r) => r.hour)).toEqual([
      kept * 24 + 5,
      Math.floor(now / HOUR),
    ]);
    expect((await tableRows("agg-prune", "usage_durations")).filter((r) => r.day === stale)).toEqual([]);
  });

  it("fills the tables once from the entries of an object that had them before", async () => {
    const d0 = dayStart(4);
    const stub = log("backfill");
    await stub.append(
      [
        execution("backfill", { ts: d0 + HOUR, toolCalls: 2, durationMs: 40 }),
        execution("backfill", { ts: d0 + HOUR + 1, status: "error", error: "TimeoutError", durationMs: 900 }),
        entry("backfill", { ts: d0 + HOUR + 2, tool: "demo.a" }),
        entry("backfill", { ts: d0 + DAY, tool: "demo.b", status: "error", error: "UpstreamError" }),
        execution("backfill", { ts: d0 + DAY + 5 * HOUR, status: "cancelled", durationMs: 0 }),
      ],
      30,
    );
    const before = {
      hours: await tableRows("backfill", "usage_hours"),
      days: await tableRows("backfill", "usage_days"),
      durations: await tableRows("backfill", "usage_durations"),
    };
    const usage = await stub.usage(d0, d0 + 2 * DAY);
    // As before the tables existed: entries only (one past the retention, written around append).
    await runInDurableObject(stub, (_i, state) => {
      const sql = state.storage.sql;
      for (const t of ["usage_hours", "usage_days", "usage_durations"]) sql.exec(`DROP TABLE ${t}`);
      sql.exec(
        "INSERT INTO entries SELECT ? AS ts, request_id, team, key_id, session_id, kind, tool, args_sha256, status, error, duration_ms, result_bytes, tool_calls, decided_by, worker FROM entries LIMIT 1",
        Date.now() - 40 * DAY,
      );
      new AuditLog(state, env);
      // a later start finds the tables and adds nothing
      new AuditLog(state, env);
    });
    expect({
      hours: await tableRows("backfill", "usage_hours"),
      days: await tableRows("backfill", "usage_days"),
      durations: await tableRows("backfill", "usage_durations"),
    }).toEqual(before);
    expect(before.hours).toHaveLength(2);
    expect(await stub.usage(d0, d0 + 2 * DAY)).toEqual(usage);
    // and appends go on adding to them
    await stub.append([execution("backfill", { ts: d0 + HOUR + 3 })], 30);
    expect((await tableRows("backfill", "usage_hours"))[0]).toEqual({
      hour: d0 / HOUR + 1,
      executions: 3,
      errors: 1,
      tool_calls: 2,
    });
  });

  it("aggregates rows as a pure function, which append and backfill share", () => {
    const t = 1_767_225_600_000; // 2026-01-01T00:00:00Z
    const day = t / DAY;
    expect(
      aggregateUsage([
        { ts: t + 1, kind: "execute", tool: "execute", status: "ok", durationMs: 3, toolCalls: 2 },
        { ts: t + HOUR, kind: "execute", tool: "execute", status: "error", durationMs: 3 },
        { ts: t + 2, kind: "tool_call", tool: "demo.a", status: "cancelled", durationMs: 9 },
        { ts: t + DAY, kind: "approval", tool: "demo.a", status: "error", durationMs: 70_000 },
      ]),
    ).toEqual({
      hours: [
        { hour: t / HOUR, executions: 1, errors: 0, toolCalls: 2 },
        { hour: t / HOUR + 1, executions: 1, errors: 1, toolCalls: 0 },
      ],
      days: [
        { day, kind: "execute", tool: "execute", calls: 2, errors: 1 },
        { day, kind: "tool_call", tool: "demo.a", calls: 1, errors: 0 },
        { day: day + 1, kind: "approval", tool: "demo.a", calls: 1, errors: 1 },
      ],
      durations: [{ day, bucket: 8, n: 2 }],
    });
    expect(aggregateUsage([])).toEqual({ hours: [], days: [], durations: [] });
  });

  it("refuses a bad range with the field named", async () => {
    const stub = log("agg-bad");
    expect(await failure(stub.usage(-1, 0))).toMatch(/since[\s\S]*>=0|>=0[\s\S]*since/);
    expect(await failure(stub.usage(10, 5))).toMatch(/must not be after until/);
    expect(await failure(stub.usage(0, 1.5))).toMatch(/until/);
    // a range wholly before the retention reads nothing
    expect(await stub.usage(0, 1000)).toEqual({ hours: [], days: [], topTools: [] });
  });
});

describe("AuditLog pages", () => {
  const team = "pages";
  const t = Date.now() - 60_000;
  // 25 entries, three to a millisecond (ties are ordered by rowid), of mixed kind, status and tool
  const all = Array.from({ length: 25 }, (_, i) =>
    entry(team, {
      ts: t + Math.floor(i / 3),
      requestId: `p${String(i).padStart(2, "0")}`,
      ...(i % 5 === 0
        ? { kind: "execute" as const, tool: "execute" }
        : { tool: i % 2 ? "demo.a" : "demo.b" }),
      ...(i % 4 === 0 ? { status: "error" as const, error: "UpstreamError" } : {}),
      ...(i % 9 === 1 ? { status: "cancelled" as const } : {}),
    }),
  );
  const newestFirst = [...all].reverse().map((e) => e.requestId);
  const ids = (rows: AuditEntry[]) => rows.map((r) => r.requestId);

  /** every page of `q`, following `next`, checking each page's size */
  const pageAll = async (q: AuditQuery, limit: number) => {
    const stub = log(team);
    const seen: string[] = [];
    let before: AuditCursor | undefined;
    for (let pages = 0; pages < 30; pages++) {
      const page = await stub.page({ ...q, limit, ...(before ? { before } : {}) });
      expect(page.entries.length).toBeLessThanOrEqual(limit);
      seen.push(...ids(page.entries));
      if (!page.next) return seen;
      expect(page.entries).toHaveLength(limit);
      before = page.next;
    }
    throw new Error("no last page");
  };

  beforeAll(async () => {
    await log(team).append(all, 30);
  });

  it("pages through 25 entries 10 at a time, ties included", async () => {
    const stub = log(team);
    const first = await stub.page({ limit: 10 });
    expect(ids(first.entries)).toEqual(newestFirst.slice(0, 10));
    expect(first.next?.ts).toBe(first.entries[9]?.ts);
    expect(first.next?.rowid).toEqual(expect.any(Number));
    const second = await stub.page({ limit: 10, before: first.next });
    expect(ids(second.entries)).toEqual(newestFirst.slice(10, 20));
    const third = await stub.page({ limit: 10, before: second.next });
    expect(ids(third.entries)).toEqual(newestFirst.slice(20));
    expect(third.next).toBeUndefined();
    // a last page that is exactly full says there is no more
    const exact = await stub.page({ limit: 5, before: second.next });
    expect(ids(exact.entries)).toEqual(newestFirst.slice(20));
    expect(exact).not.toHaveProperty("next");
    expect(await pageAll({}, 10)).toEqual(newestFirst);
    expect(await pageAll({}, 3)).toEqual(newestFirst);
    // query reads the same rows, without cursors
    expect(ids(await stub.query({ limit: 10, before: first.next }))).toEqual(newestFirst.slice(10, 20));
  });

  it("filters by status, kind and tool, alone and together, on every page", async () => {
    const stub = log(team);
    const expected = (keep: (e: AuditEntry) => boolean) =>
      [...all]
        .reverse()
        .filter(keep)
        .map((e) => e.requestId);
    const cases: AuditQuery[] = [
      { status: "error" },
      { status: "cancelled" },
      { status: "ok" },
      { kind: "execute" },
      { kind: "tool_call" },
      { kind: "approval" },
      { tool: "demo.a" },
      { kind: "tool_call", status: "error" },
      { tool: "demo.b", status: "ok" },
      { kind: "execute", status: "ok", since: t + 2, until: t + 6 },
    ];
    for (const q of cases) {
      const want = expected(
        (e) =>
          (q.status === undefined || e.status === q.status) &&
          (q.kind === undefined || e.kind === q.kind) &&
          (q.tool === undefined || e.tool === q.tool) &&
          (q.since === undefined || e.ts >= q.since) &&
          (q.until === undefined || e.ts <= q.until),
      );
      expect(want.length === 0 && q.kind !== "approval", JSON.stringify(q)).toBe(false);
      expect(await pageAll(q, 2), JSON.stringify(q)).toEqual(want);
      expect(ids(await stub.query(q)), JSON.stringify(q)).toEqual(want);
    }
    // the rare values read the partial index, not every row of the ts index
    const plan = await runInDurableObject(stub, (_i, state) =>
      state.storage.sql
        .exec<{ detail: string }>(
          "EXPLAIN QUERY PLAN SELECT rowid FROM entries WHERE ts >= 0 AND status = 'error' ORDER BY ts DESC, rowid DESC LIMIT 3",
        )
        .toArray()
        .map((r) => r.detail)
        .join("; "),
    );
    expect(plan).toMatch(/entries_rare/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it("clamps the limit and refuses a bad cursor or filter", async () => {
    const stub = log(team);
    const one = await stub.page({ limit: 0 });
    expect(ids(one.entries)).toEqual(newestFirst.slice(0, 1));
    expect(one.next).toBeDefined();
    expect((await stub.page({ limit: 5000 })).entries).toHaveLength(25);
    expect(await failure(stub.page({ before: { ts: -1, rowid: 1 } }))).toMatch(/before/);
    expect(await failure(stub.page({ before: { ts: t, rowid: 0 } }))).toMatch(/rowid/);
    expect(await failure(stub.page({ kind: "nope" } as unknown as AuditQuery))).toMatch(/kind/);
    expect(await failure(stub.query({ status: "failed" } as unknown as AuditQuery))).toMatch(/status/);
  });
});

describe("recordAudit", () => {
  it("writes through waitUntil, batching entries per team", async () => {
    const pending: Promise<unknown>[] = [];
    const waitUntil = (p: Promise<unknown>) => pending.push(p);
    recordAudit(env, waitUntil, [entry("batch-a"), entry("batch-b")]);
    recordAudit(env, waitUntil, async () => [entry("batch-a", { tool: "execute", kind: "execute" })]);
    await Promise.all(pending);
    expect(await log("batch-a").query({})).toHaveLength(2);
    expect(await log("batch-b").query({})).toHaveLength(1);
  });

  it("writes this isolate's unsent entries before a session's history is read, and only once", async () => {
    const pending: Promise<unknown>[] = [];
    const ran = entry("hist-flush", { kind: "execute", tool: "execute", sessionId: "s-flush", toolCalls: 3 });
    recordAudit(env, (p) => pending.push(p), [ran]);
    await new Promise((r) => setTimeout(r, 0)); // queued, well inside the batch window
    expect(await log("hist-flush").query({})).toEqual([]);
    expect(await sessionHistory(env, "hist-flush", "s-flush")).toEqual([
      { at: iso(ran.ts), durationMs: 5, toolCalls: 3, resultBytes: 10 },
    ]);
    await Promise.all(pending);
    expect(await log("hist-flush").query({})).toHaveLength(1);
  });

  it("does nothing without an AUDIT binding, and never throws", async () => {
    const pending: Promise<unknown>[] = [];
    let built = false;
    const build = async () => {
      built = true;
      return [entry("nobody")];
    };
    expect(() => recordAudit({}, (p) => pending.push(p), build)).not.toThrow();
    expect(pending).toEqual([]);
    expect(built).toBe(false);
    recordAudit(
      env,
      (p) => pending.push(p),
      () => Promise.reject(new Error("hashing failed")),
    );
    const throwing = () => {
      throw new Error("waitUntil is gone");
    };
    expect(() => recordAudit(env, throwing, [entry("nobody")])).not.toThrow();
    await expect(Promise.all(pending)).resolves.toBeDefined();
  });

  it("reads AUDIT_RETENTION_DAYS with a safe default", () => {
    expect(retentionDays({})).toBe(30);
    expect(retentionDays({ AUDIT_RETENTION_DAYS: "" })).toBe(30);
    expect(retentionDays({ AUDIT_RETENTION_DAYS: "7" })).toBe(7);
    expect(retentionDays({ AUDIT_RETENTION_DAYS: "0" })).toBe(30);
    expect(retentionDays({ AUDIT_RETENTION_DAYS: "1.5" })).toBe(30);
    expect(retentionDays({ AUDIT_RETENTION_DAYS: "forever" })).toBe(30);
  });
});

describe("argument hashing", () => {
  it("hashes canonical JSON: sorted keys at every depth", async () => {
    expect(canonicalJson({ b: [1, { d: "x", c: null }], a: 2 })).toBe('{"a":2,"b":[1,{"c":null,"d":"x"}]}');
    expect(await sha256Hex({ b: [1, { d: "x", c: null }], a: 2 })).toBe(
      "41f07cb8ff3f7cef7a9c5149f898e296ff840cc7d3b3d92714818619fb45dc95",
    );
  });

  it("follows JSON for odd values and never throws", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(canonicalJson(cyclic)).toBe('{"a":1,"self":"[Circular]"}');
    expect(canonicalJson({ u: undefined, f: () => 1, n: Number.NaN, big: 10n, d: new Date(0) })).toBe(
      '{"big":"10","d":"1970-01-01T00:00:00.000Z","n":null}',
    );
    expect(canonicalJson([undefined, 1])).toBe("[null,1]");
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1}}');
  });

  it("sizes results as UTF-8 bytes of their JSON", () => {
    expect(jsonBytes(undefined)).toBe(0);
    expect(jsonBytes("é😀")).toBe(8);
    expect(jsonBytes({ a: [1, 2] })).toBe(11);
  });
});
