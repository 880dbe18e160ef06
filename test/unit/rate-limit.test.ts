import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RateLimiter } from "../../durable-objects/limiter/rate-limiter";
import { limiter } from "../../workers/gateway/limits/limiter";
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

describe("the limiter object's writes (answered before storage confirms them)", () => {
  const object = (name: string) => limiter(env, name);

  it("are seen by the next call at once, within one turn of the object", async () => {
    await runInDurableObject(object("rl-turn"), (instance: RateLimiter, state) => {
      const takes = [1, 2, 3].map(() => instance.take(2, 1, "bucket:k"));
      expect(takes.map((t) => t.allowed)).toEqual([true, true, false]);
      expect(state.storage.kv.get<{ tokens: number }>("bucket:k")?.tokens).toBeLessThan(1);
      const first = instance.acquire(1, 60_000);
      expect(first).toEqual(expect.any(String));
      expect(instance.acquire(1, 60_000)).toBeNull();
      instance.release([first!]);
      expect(instance.acquire(1, 60_000)).toEqual(expect.any(String));
    });
  });

  it("are in storage once the call has answered", async () => {
    const stub = object("rl-stored");
    const admitted = await stub.admit("k1", 5, 2, { max: 3, ttlMs: 60_000 });
    expect(admitted).toMatchObject({ allowed: true, remaining: 3, lease: expect.any(String) });
    await runInDurableObject(stub, async (_instance: RateLimiter, state) => {
      expect(await state.storage.get<{ tokens: number }>("bucket:k1")).toMatchObject({ tokens: 3 });
      expect(await state.storage.get("leases")).toEqual([
        { id: admitted.lease, expiresAt: expect.any(Number) },
      ]);
    });
  });
});
