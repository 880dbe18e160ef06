import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "../../durable-objects/audit/audit-log";
import type { AuditCursor } from "../../durable-objects/audit/entry";
import type { AuditEntry, AuditQuery } from "../../workers/gateway/audit";
import { recordAudit, retentionDays, sessionHistory } from "../../workers/gateway/audit";
import { DAY, entry, failure, iso, log, rowCount } from "../helpers/audit-log";

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

  it("keeps an entry's user, and gives a table from before users the column (old rows without one)", async () => {
    const stub = log("users");
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec("DROP TABLE entries");
      state.storage.sql.exec(`CREATE TABLE entries (
        ts INTEGER NOT NULL, request_id TEXT NOT NULL, team TEXT NOT NULL, key_id TEXT NOT NULL,
        session_id TEXT, kind TEXT NOT NULL, tool TEXT NOT NULL, args_sha256 TEXT NOT NULL,
        status TEXT NOT NULL, error TEXT, duration_ms INTEGER NOT NULL, result_bytes INTEGER NOT NULL,
        tool_calls INTEGER, decided_by TEXT, worker TEXT)`);
      state.storage.sql.exec(
        `INSERT INTO entries VALUES (?, 'old-req', 'users', 'key-1', NULL, 'tool_call', 'demo.x', ?, 'ok', NULL, 1, 1, NULL, NULL, NULL)`,
        Date.now() - 1_000,
        "0".repeat(64),
      );
    });
    // The object as it starts after a deploy: its constructor migrates the table.
    await runInDurableObject(stub, (_i, state) => {
      new AuditLog(state, env as unknown as Env);
    });
    await stub.append([entry("users", { user: "alice@example.com" })], 30);
    const [mine, old] = await stub.query({});
    expect(mine?.user).toBe("alice@example.com");
    expect(old?.requestId).toBe("old-req");
    expect(old && "user" in old).toBe(false);
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
        "INSERT INTO entries SELECT ? AS ts, request_id, team, key_id, session_id, kind, tool, args_sha256, status, error, duration_ms, result_bytes, tool_calls, decided_by, worker, user, trace_id FROM entries",
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
        "INSERT INTO entries SELECT ? AS ts, request_id, team, key_id, session_id, kind, tool, args_sha256, status, error, duration_ms, result_bytes, tool_calls, decided_by, worker, user, trace_id FROM entries",
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

describe("AuditLog keeps the team's limits", () => {
  it("returns the leases an append carries and saves the limits with the append", async () => {
    const stub = log("limits-in-append");
    const one = { max: 1, ttlMs: 60_000 };
    const lease = (await stub.admit("k", 100, 1, one)).lease;
    expect(typeof lease).toBe("string");
    expect((await stub.admit("k", 100, 1, one)).lease).toBeNull();
    await stub.append([entry("limits-in-append", { kind: "execute", tool: "execute" })], 30, [lease!]);
    // Saved with the entry, well before the write-behind is due: what a new instance would read.
    const stored = await runInDurableObject(stub, (_i: AuditLog, state) => ({
      leases: state.storage.kv.get<unknown[]>("leases"),
      bucket: state.storage.kv.get<{ credits: number }>("bucket:k"),
    }));
    expect(stored.leases).toEqual([]);
    expect(stored.bucket?.credits).toBeLessThan(99);
    expect(await stub.query({})).toHaveLength(1);
    expect(typeof (await stub.admit("k", 100, 1, one)).lease).toBe("string");
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
    expect(await sessionHistory(env, "hist-flush", "s-flush", (p) => pending.push(p))).toEqual([
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
