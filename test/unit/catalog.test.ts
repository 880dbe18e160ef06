import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { callTool } from "../../workers/gateway/bridge/call-tool";
import { cacheKey, forgetMemo } from "../../workers/gateway/upstreams/cache";
import { type CatalogDeps, loadCatalog } from "../../workers/gateway/upstreams/catalog";
import { forgetSessions } from "../../workers/gateway/upstreams/client";
import type { UpstreamServer } from "../../workers/gateway/upstreams/config";
import { fakeUpstream, pagedUpstream, upstreamServer } from "../helpers/fake-upstream";
import { HANG_GUARD_MS } from "../helpers/hang-guard";

const background: Promise<unknown>[] = [];
function deps(servers: UpstreamServer[], over: Partial<CatalogDeps> = {}): CatalogDeps {
  return {
    kv: env.SCHEMA_CACHE,
    team: "test",
    servers,
    ttlSeconds: 3600,
    timeoutMs: 2000,
    waitUntil: (p) => background.push(p),
    ...over,
  };
}

beforeEach(() => {
  forgetMemo();
  forgetSessions();
  background.length = 0;
});

describe("schema cache", () => {
  it("fetches on a cold cache, then serves from KV without calling the upstream", async () => {
    const up = fakeUpstream();
    const server = await upstreamServer("one", up.fetcher);
    const first = await loadCatalog(deps([server]));
    expect(first.servers[0]).toMatchObject({ name: "one", state: "ok", tools: 3 });
    expect(first.tools.map((t) => t.qualifiedName)).toEqual(["one.add", "one.fail", "one.hang"]);
    const stored = await env.SCHEMA_CACHE.get(cacheKey("test", "one", server.configHash), "json");
    expect(stored).toMatchObject({ tools: [{ name: "add" }, { name: "fail" }, { name: "hang" }] });
    up.state.down = true;
    forgetMemo();
    const second = await loadCatalog(deps([server]));
    expect(second.servers[0]).toMatchObject({ state: "ok", tools: 3 });
  });

  it("refreshes in the background before expiry and picks up changes", async () => {
    const up = fakeUpstream();
    const server = await upstreamServer("two", up.fetcher);
    await loadCatalog(deps([server]));
    up.state.extraTools = 3;
    const key = cacheKey("test", "two", server.configHash);
    const entry = (await env.SCHEMA_CACHE.get(key, "json")) as { fetchedAt: number };
    await env.SCHEMA_CACHE.put(key, JSON.stringify({ ...entry, fetchedAt: Date.now() - 3000_000 }));
    forgetMemo();
    const during = await loadCatalog(deps([server]));
    expect(during.servers[0]).toMatchObject({ state: "ok", tools: 3 });
    expect(background).toHaveLength(1);
    await Promise.all(background);
    forgetMemo();
    expect((await loadCatalog(deps([server]))).servers[0]).toMatchObject({ state: "ok", tools: 6 });
  });

  it("versions the catalog by its tool lists: a refresh with the same tools keeps it, changed tools change it", async () => {
    const up = fakeUpstream();
    const server = await upstreamServer("versioned", up.fetcher);
    const first = await loadCatalog(deps([server]));
    const key = cacheKey("test", "versioned", server.configHash);
    const refetch = async () => {
      const entry = (await env.SCHEMA_CACHE.get(key, "json")) as { fetchedAt: number };
      await env.SCHEMA_CACHE.put(key, JSON.stringify({ ...entry, fetchedAt: Date.now() - 3000_000 }));
      forgetMemo();
      await loadCatalog(deps([server]));
      await Promise.all(background);
      background.length = 0;
      forgetMemo();
      return loadCatalog(deps([server]));
    };
    const same = await refetch();
    expect(first.version).toMatch(/^test versioned:\w+:\w{64}$/);
    expect(same.version).toBe(first.version);
    up.state.extraTools = 1;
    const changed = await refetch();
    expect(changed.tools).toHaveLength(4);
    expect(changed.version).not.toBe(first.version);
    expect((await loadCatalog(deps([server], { team: "other" }))).version).not.toBe(changed.version);
  });

  it("serves the stale list and says so when the refresh fails", async () => {
    const up = fakeUpstream();
    const server = await upstreamServer("three", up.fetcher);
    await loadCatalog(deps([server]));
    const key = cacheKey("test", "three", server.configHash);
    const entry = (await env.SCHEMA_CACHE.get(key, "json")) as { fetchedAt: number };
    await env.SCHEMA_CACHE.put(key, JSON.stringify({ ...entry, fetchedAt: Date.now() - 7200_000 }));
    up.state.down = true;
    forgetMemo();
    const expired = await loadCatalog(deps([server]));
    expect(expired.servers[0]).toMatchObject({ state: "stale", tools: 3 });
    await Promise.all(background);
    forgetMemo();
    const after = await loadCatalog(deps([server]));
    expect(after.servers[0]).toMatchObject({
      state: "stale",
      tools: 3,
      error: expect.stringMatching(/^refresh failed: /),
    });
    expect(after.tools).toHaveLength(3);
  });

  it("marks a dead upstream failing without holding up the others", async () => {
    const good = fakeUpstream();
    const bad = fakeUpstream();
    bad.state.down = true;
    const servers = [await upstreamServer("good", good.fetcher), await upstreamServer("bad", bad.fetcher)];
    const catalog = await loadCatalog(deps(servers));
    expect(catalog.servers).toEqual([
      expect.objectContaining({ name: "good", state: "ok", tools: 3 }),
      expect.objectContaining({ name: "bad", state: "failing", tools: 0, error: expect.any(String) }),
    ]);
  });

  it("follows tools/list pagination", async () => {
    const catalog = await loadCatalog(deps([await upstreamServer("paged", pagedUpstream(250, 40))]));
    expect(catalog.servers[0]).toMatchObject({ state: "ok", tools: 250 });
    expect(catalog.tools.at(-1)?.qualifiedName).toBe("paged.tool_249");
  });

  it("bounds a hanging upstream by the timeout", async () => {
    const hanging = { fetch: () => new Promise<Response>(() => {}) } as unknown as Fetcher;
    const started = Date.now();
    const catalog = await loadCatalog(deps([await upstreamServer("slow", hanging)], { timeoutMs: 300 }));
    expect(catalog.servers[0]).toMatchObject({ state: "failing" });
    expect(Date.now() - started).toBeLessThan(HANG_GUARD_MS);
  });
});

describe("calls", () => {
  it("validates, calls and unwraps structured content; error results throw with the tool name", async () => {
    const up = fakeUpstream();
    const servers = [await upstreamServer("calc", up.fetcher)];
    const catalog = await loadCatalog(deps(servers));
    expect(await callTool(catalog, servers, "calc.add", { a: 2, b: 3 }, { timeoutMs: 2000 })).toEqual({
      value: { sum: 5 },
      json: '{"sum":5}',
    });
    const invalid = callTool(catalog, servers, "calc.add", { a: "x" }, { timeoutMs: 2000 });
    await expect(invalid).rejects.toThrow(
      /^Invalid arguments for calc\.add:\n {2}\(arguments\): .*required property "b".*\n {2}\/a: .*"number"/,
    );
    await expect(callTool(catalog, servers, "calc.fail", {}, { timeoutMs: 2000 })).rejects.toThrow(
      "calc.fail returned an error: nope",
    );
    await expect(callTool(catalog, servers, "calc.ad", {}, { timeoutMs: 2000 })).rejects.toThrow(
      /Unknown tool "calc\.ad"\. Did you mean: calc\.add/,
    );
    await expect(callTool(catalog, servers, "nope.add", {}, { timeoutMs: 2000 })).rejects.toThrow(
      /There is no server "nope"; servers: calc/,
    );
    expect(up.state.calls).toBe(1);
  });

  it("ends a call the upstream never answers at the call timeout, naming the tool", async () => {
    const up = fakeUpstream();
    const servers = [await upstreamServer("slow", up.fetcher)];
    const catalog = await loadCatalog(deps(servers));
    const started = Date.now();
    await expect(callTool(catalog, servers, "slow.hang", {}, { timeoutMs: 300 })).rejects.toThrow(
      /^slow\.hang failed: .*(timed out|Request timed out)/i,
    );
    expect(Date.now() - started).toBeLessThan(HANG_GUARD_MS);
  });
});
