import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AuditLog } from "../../durable-objects/audit/audit-log";
import {
  aggregateUsage,
  bucketUpperMs,
  durationBucket,
  histogramPercentile,
} from "../../durable-objects/audit/usage";
import type { AuditEntry } from "../../workers/gateway/audit";
import { DAY, entry, failure, iso, log } from "../helpers/audit-log";

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
        "INSERT INTO entries SELECT ? AS ts, request_id, team, key_id, session_id, kind, tool, args_sha256, status, error, duration_ms, result_bytes, tool_calls, decided_by, worker, user, trace_id FROM entries LIMIT 1",
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
