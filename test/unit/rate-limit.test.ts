import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type RateLimiter, WRITE_BEHIND_MS } from "../../durable-objects/limiter/rate-limiter";
import { limiter } from "../../workers/gateway/admission/limiter";
import { request } from "../helpers/app";
import { teamWithKey } from "../helpers/teams";

const keyFor = async (team: string, limits: Record<string, number>) =>
  (await teamWithKey(team, { limits })).key;

describe("rate limits", () => {
  it("allow exactly the per-minute budget under concurrent requests, then 429 with Retry-After", async () => {
    const key = await keyFor("rl-exact", { requestsPerMinute: 10 });
    const responses = await Promise.all(
      Array.from({ length: 25 }, () => request("/v1/tools?detail=name", { headers: { "X-API-Key": key } })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    const refused = responses.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("RateLimit-Limit")).toBe("10");
    expect(refused.headers.get("RateLimit-Remaining")).toBe("0");
    expect(await refused.json()).toMatchObject({ error: { code: "rate_limited" } });
    const allowed = responses.find((r) => r.status === 200)!;
    expect(allowed.headers.get("RateLimit-Limit")).toBe("10");
  });

  it("answers /mcp with a JSON-RPC error when limited", async () => {
    const key = await keyFor("rl-mcp", { requestsPerMinute: 1 });
    const post = () =>
      request("/mcp", {
        method: "POST",
        headers: {
          "X-API-Key": key,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "t", version: "1" },
          },
        }),
      });
    expect((await post()).status).toBe(200);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBeTruthy();
    expect(await limited.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { message: expect.stringMatching(/Too many requests/) },
    });
  });

  it("keeps keys apart: one key's budget does not spend another's", async () => {
    const a = await keyFor("rl-a", { requestsPerMinute: 2 });
    const b = await keyFor("rl-b", { requestsPerMinute: 2 });
    for (let i = 0; i < 2; i++)
      expect((await request("/v1/tools", { headers: { "X-API-Key": a } })).status).toBe(200);
    expect((await request("/v1/tools", { headers: { "X-API-Key": a } })).status).toBe(429);
    expect((await request("/v1/tools", { headers: { "X-API-Key": b } })).status).toBe(200);
  });
});

describe("concurrent executions per team", () => {
  it("runs at most maxConcurrent at once and frees the slots afterwards", async () => {
    const key = await keyFor("cc", { maxConcurrent: 2 });
    const exec = () =>
      request("/v1/execute", {
        method: "POST",
        headers: { "X-API-Key": key, "Content-Type": "application/json" },
        body: JSON.stringify({ code: "await new Promise((r) => setTimeout(r, 400)); return 1" }),
      }).then((r) => r.json() as Promise<{ result?: number; error?: { name: string } }>);
    const results = await Promise.all([exec(), exec(), exec(), exec()]);
    expect(results.filter((r) => r.result === 1)).toHaveLength(2);
    expect(results.filter((r) => r.error?.name === "ConcurrencyLimitError")).toHaveLength(2);
    expect((await exec()).result).toBe(1);
  });
});

describe("the limiter object's state (memory first, storage written behind)", () => {
  const object = (name: string) => limiter(env, name);
  const settle = () => new Promise((resolve) => setTimeout(resolve, WRITE_BEHIND_MS + 30));

  it("is seen by the next call at once, within one turn of the object", async () => {
    await runInDurableObject(object("rl-turn"), (instance: RateLimiter) => {
      const takes = [1, 2, 3].map(() => instance.take(2, 1, "bucket:k"));
      expect(takes.map((t) => t.allowed)).toEqual([true, true, false]);
      const first = instance.acquire(1, 60_000);
      expect(first).toEqual(expect.any(String));
      expect(instance.acquire(1, 60_000)).toBeNull();
      instance.release([first!]);
      expect(instance.acquire(1, 60_000)).toEqual(expect.any(String));
    });
  });

  it("reaches storage once per window, all of the window's changes in one put", async () => {
    const stub = object("rl-stored");
    await runInDurableObject(stub, async (instance: RateLimiter, state) => {
      const puts: unknown[] = [];
      const put = state.storage.put.bind(state.storage) as (
        entries: object,
        options?: object,
      ) => Promise<void>;
      state.storage.put = ((entries: object, options?: object) => {
        puts.push(entries);
        return put(entries, options);
      }) as typeof state.storage.put;
      const admitted = instance.admit("k1", 5, 2, { max: 3, ttlMs: 60_000 });
      instance.admit("k2", 5, 1);
      expect(admitted).toMatchObject({ allowed: true, remaining: 3, lease: expect.any(String) });
      expect(state.storage.kv.get("bucket:k1")).toBeUndefined();
      await settle();
      expect(puts).toHaveLength(1);
      expect(Object.keys(puts[0] as object).sort()).toEqual(["bucket:k1", "bucket:k2", "leases"]);
      expect(state.storage.kv.get<{ credits: number }>("bucket:k1")).toMatchObject({ credits: 3 });
      expect(state.storage.kv.get("leases")).toEqual([{ id: admitted.lease, expiresAt: expect.any(Number) }]);
    });
  });

  it("is where a new instance of the object starts from (after eviction, a deploy or a crash)", async () => {
    const stub = object("rl-restart");
    const first = await stub.admit("k1", 4, 3, { max: 1, ttlMs: 60_000 });
    expect(first).toMatchObject({ allowed: true, remaining: 1, lease: expect.any(String) });
    await settle();
    await runInDurableObject(stub, (instance: RateLimiter, state) => {
      const next = new (instance.constructor as typeof RateLimiter)(state, env);
      expect(next.take(4, 2, "bucket:k1")).toMatchObject({ allowed: false, remaining: 1 });
      expect(next.acquire(1, 60_000)).toBeNull();
      next.release([first.lease!]);
      expect(next.acquire(1, 60_000)).toEqual(expect.any(String));
    });
  });
});
