// What an isolate owes a team's audit log (ended executions' leases, audit entries) goes with the
// team's next admit, or on its own after QUEUE_MAX_AGE_MS: workers/gateway/audit/record.ts.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AuditLog } from "../../durable-objects/audit/audit-log";
import { WRITE_BEHIND_MS } from "../../durable-objects/limiter/team-limits";
import { limiter } from "../../workers/gateway/admission/limiter";
import { recordAudit } from "../../workers/gateway/audit";
import worker from "../../workers/gateway/index";
import { storageCalls } from "../../workers/gateway/timing/storage-meter";
import { entry, log, rowCount } from "../helpers/audit-log";
import { teamWithKey } from "../helpers/teams";

type Result = { result?: unknown; error?: { name: string } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("an isolate's leases and audit entries, carried by the team's next admit", () => {
  it("a paced execution makes one Durable Object request: its lease and entry go with the next admit, before its decision", async () => {
    const team = "carry-paced";
    const { key } = await teamWithKey(team, { limits: { maxConcurrent: 1 } });
    const timing = { ...env, PHASE_TIMING: "on" };
    const send = async (n: number) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request<unknown, IncomingRequestCfProperties>("http://gateway/v1/execute", {
          method: "POST",
          headers: { "X-API-Key": key, "Content-Type": "application/json" },
          body: JSON.stringify({ code: `return ${n}` }),
        }),
        timing,
        ctx,
      );
      return { body: (await res.json()) as Result, ctx };
    };
    const before = storageCalls().doRequest;
    const a = await send(1);
    expect(a.body.result).toBe(1);
    await sleep(300); // an agent's think time: longer than the entries' quiet, shorter than the queue's age
    expect(storageCalls().doRequest - before).toBe(1); // the admit only: nothing went on its own
    expect(await log(team).query({})).toEqual([]);
    // The team's one lease is still held in the object: the next admit returns it before deciding.
    expect(await limiter(env, team).acquire(1, 60_000)).toBeNull();
    const b = await send(2);
    expect(b.body.result).toBe(2);
    expect(storageCalls().doRequest - before).toBe(2);
    expect((await log(team).query({})).map((e) => e.requestId)).toHaveLength(1);
    // Nothing came after the second: its lease and entry go by themselves, once.
    await Promise.all([waitOnExecutionContext(a.ctx), waitOnExecutionContext(b.ctx)]);
    expect(storageCalls().doRequest - before).toBe(3);
    expect(await rowCount(team)).toBe(2);
    const lease = await limiter(env, team).acquire(1, 60_000);
    expect(typeof lease).toBe("string");
  });

  it("writes a batch sent again once, by an append or by an admit", async () => {
    const stub = log("carry-once");
    const batch = { id: "b-1", entries: [entry("carry-once"), entry("carry-once")] };
    expect(await stub.append(batch.entries, 30, [], batch.id)).toEqual({ written: 2, skipped: 0 });
    expect(await stub.append(batch.entries, 30, [], batch.id)).toEqual({ written: 0, skipped: 0 });
    const other = { id: "b-2", entries: [entry("carry-once")] };
    const carried = { batches: [batch, other], retentionDays: 30 };
    expect(await stub.admit("k", 100, 1, undefined, [], carried)).toMatchObject({ allowed: true });
    expect(await stub.admit("k", 100, 1, undefined, [], carried)).toMatchObject({ allowed: true });
    expect(await stub.query({})).toHaveLength(3); // a read writes what admits carried first
    expect(await rowCount("carry-once")).toBe(3);
  });

  it("writes what an admit carried with the limits' write-behind, not before the admit's answer", async () => {
    const stub = log("carry-behind");
    const carried = { batches: [{ id: "b-3", entries: [entry("carry-behind")] }], retentionDays: 30 };
    expect(await stub.admit("k", 100, 1, undefined, [], carried)).toMatchObject({ allowed: true });
    expect(await rowCount("carry-behind")).toBe(0);
    await sleep(WRITE_BEHIND_MS + 100);
    expect(await rowCount("carry-behind")).toBe(1);
  });

  it("sends a batch whose append failed again, and it is written once", async () => {
    const team = "carry-requeue";
    let failures = 1;
    const ns = env.AUDIT;
    const flaky = {
      idFromName: (name: string) => ns.idFromName(name),
      get: (id: DurableObjectId) => {
        const stub = ns.get(id);
        return {
          append: (...args: Parameters<AuditLog["append"]>) =>
            failures-- > 0 ? Promise.reject(new Error("the object is overloaded")) : stub.append(...args),
        };
      },
    };
    const pending: Promise<unknown>[] = [];
    const waitUntil = (p: Promise<unknown>) => pending.push(p);
    recordAudit({ ...env, AUDIT: flaky }, waitUntil, [entry(team, { kind: "execute", tool: "execute" })]);
    while (pending.length > 0) await Promise.all(pending.splice(0));
    expect(failures).toBe(-1); // failed once, then sent again
    expect(await rowCount(team)).toBe(1);
  });
});
