import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { callTool } from "../../workers/gateway/bridge/call-tool";
import { indexKey } from "../../workers/gateway/openapi/index-store";
import { curateTools } from "../../workers/gateway/teams/curation";
import { TeamInput } from "../../workers/gateway/teams/schema";
import { forgetMemo } from "../../workers/gateway/upstreams/cache";
import { type CatalogDeps, loadCatalog } from "../../workers/gateway/upstreams/catalog";
import { parseMcpServers, type UpstreamServer } from "../../workers/gateway/upstreams/config";

/** An API behind a service binding: its description (with an ETag) and one operation, counted. */
function fakeApi() {
  const state = {
    described: 0,
    notModified: 0,
    down: false,
    version: "1",
    seen: [] as string[],
    keys: [] as (string | null)[],
  };
  const description = () =>
    JSON.stringify({
      openapi: "3.1.0",
      info: { title: "Pets", version: state.version },
      servers: [{ url: "/v1" }],
      paths: {
        "/pets/{id}": {
          get: {
            operationId: "getPet",
            parameters: [
              { name: "id", in: "path", required: true, schema: { type: "string" } },
              { name: "X-Api-Key", in: "header", schema: { type: "string" } },
            ],
            responses: { "200": { content: { "application/json": { schema: { type: "object" } } } } },
          },
        },
        "/admin/reset": { post: { operationId: "adminReset", responses: {} } },
      },
    });
  const fetcher = {
    async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      const url = new URL(String(input));
      if (state.down) return new Response("down", { status: 503 });
      if (url.pathname === "/openapi.json") {
        const etag = `"v${state.version}"`;
        if (new Headers(init?.headers).get("If-None-Match") === etag) {
          state.notModified++;
          return new Response(null, { status: 304 });
        }
        state.described++;
        return new Response(description(), { headers: { ETag: etag, "Content-Type": "application/json" } });
      }
      state.seen.push(`${init?.method} ${url.pathname}${url.search}`);
      state.keys.push(new Headers(init?.headers).get("X-Api-Key"));
      return Response.json({ id: decodeURIComponent(url.pathname.split("/").pop()!) });
    },
  } as unknown as Fetcher;
  return { state, fetcher };
}

async function petsServer(fetcher: Fetcher, extra: Record<string, unknown> = {}): Promise<UpstreamServer> {
  const { servers, problems } = await parseMcpServers(
    { pets: { service: "PETS", openapi: "/openapi.json", exclude: ["admin*"], ...extra } },
    { PETS: fetcher },
  );
  expect(problems).toEqual([]);
  return servers[0]!;
}

const background: Promise<unknown>[] = [];
const deps = (servers: UpstreamServer[], over: Partial<CatalogDeps> = {}): CatalogDeps => ({
  kv: env.SCHEMA_CACHE,
  team: `oa-${crypto.randomUUID().slice(0, 8)}`,
  servers,
  ttlSeconds: 3600,
  timeoutMs: 5000,
  waitUntil: (p) => background.push(p),
  ...over,
});

beforeEach(() => {
  forgetMemo();
  background.length = 0;
});

describe("OpenAPI upstreams", () => {
  it("takes an entry beside MCP entries and names what is wrong in a bad one", async () => {
    const { problems } = await parseMcpServers(
      {
        a: { openapi: "not a url" },
        b: { openapi: "https://x.example/openapi.json", url: "https://x.example/mcp" },
        c: { url: "https://x.example/mcp", baseUrl: "https://x.example" },
        d: { service: "PETS", openapi: "openapi.json" },
      },
      { PETS: fakeApi().fetcher },
    );
    expect(problems).toEqual([
      "MCP_SERVERS.a.openapi: must be the http(s) URL of the description (or a path on a service binding)",
      'MCP_SERVERS.b.url: an OpenAPI server names its description in "openapi", not "url"',
      'MCP_SERVERS.c.baseUrl: is for OpenAPI servers (with "openapi")',
      "MCP_SERVERS.d.openapi: with a service binding, is the description's path on it (/openapi.json)",
    ]);
  });

  it("parses a description once per version: a refresh of the same version sends If-None-Match and keeps the index", async () => {
    const api = fakeApi();
    const server = await petsServer(api.fetcher);
    const d = deps([server], { ttlSeconds: 1 });
    const first = await loadCatalog(d);
    expect(first.tools.map((t) => t.qualifiedName)).toEqual(["pets.getPet"]);
    expect(api.state.described).toBe(1);
    const version = (await env.SCHEMA_CACHE.list({ prefix: indexKey(d.team, "pets", "") })).keys;
    expect(version).toHaveLength(1);
    // past the TTL: refreshed in the background, answered 304, nothing parsed or written again
    await new Promise((r) => setTimeout(r, 1100));
    forgetMemo();
    await loadCatalog(d);
    await Promise.all(background);
    expect(api.state).toMatchObject({ described: 1, notModified: 1 });
    // a call reads the kept index and goes to the description's (relative) server
    forgetMemo();
    const catalog = await loadCatalog(d);
    const out = await callTool(catalog, [server], "pets.getPet", { id: "a b/c" }, { timeoutMs: 5000 });
    expect(out.value).toEqual({ id: "a b/c" });
    expect(api.state.seen).toEqual(["GET /v1/pets/a%20b%2Fc"]);
  });

  it("keeps the last list, marked stale, when the description cannot be had", async () => {
    const api = fakeApi();
    const server = await petsServer(api.fetcher);
    const d = deps([server], { ttlSeconds: 1 });
    await loadCatalog(d);
    api.state.down = true;
    await new Promise((r) => setTimeout(r, 1100));
    forgetMemo();
    await loadCatalog(d);
    await Promise.all(background);
    forgetMemo();
    const stale = await loadCatalog(d);
    expect(stale.servers[0]).toMatchObject({
      state: "stale",
      tools: 1,
      error: expect.stringContaining("HTTP 503"),
    });
    expect(stale.tools.map((t) => t.name)).toEqual(["getPet"]);
  });

  it("sends the configured headers, which a header argument of the same name cannot replace", async () => {
    const api = fakeApi();
    const server = await petsServer(api.fetcher, { headers: { "x-api-key": "configured" } });
    const catalog = await loadCatalog(deps([server]));
    await callTool(
      catalog,
      [server],
      "pets.getPet",
      { id: "1", "X-Api-Key": "from code" },
      { timeoutMs: 5000 },
    );
    expect(api.state.keys).toEqual(["configured"]);
  });
});

describe("per-team curation", () => {
  it("renames a tool and replaces its description; a rename onto another tool's name is refused", () => {
    const tools = [
      { name: "getPet", server: "pets", qualifiedName: "pets.getPet", description: "bad", inputSchema: {} },
      { name: "other", server: "pets", qualifiedName: "pets.other", inputSchema: {} },
    ];
    const input = TeamInput.parse({
      tools: {
        "pets.getPet": { name: "get_pet", description: "One pet by id." },
        "pets.other": { name: "get_pet" },
      },
    });
    const { tools: out, problems } = curateTools(tools, input.tools);
    expect(out[0]).toMatchObject({
      name: "get_pet",
      qualifiedName: "pets.get_pet",
      upstreamName: "getPet",
      description: "One pet by id.",
    });
    expect(out[1]).toMatchObject({ name: "other", qualifiedName: "pets.other" });
    expect(problems).toEqual(["tools.pets.other.name: pets.get_pet is already a tool; not renamed"]);
    expect(TeamInput.safeParse({ tools: { "pets.x": { name: "1bad" } } }).error?.issues[0]?.message).toMatch(
      /a tool name/,
    );
  });

  it("calls a renamed tool by the upstream's own name", async () => {
    const api = fakeApi();
    const server = await petsServer(api.fetcher);
    const loaded = await loadCatalog(deps([server]));
    const { tools } = curateTools(loaded.tools, { "pets.getPet": { name: "fetch_pet" } });
    const out = await callTool(
      { ...loaded, tools },
      [server],
      "pets.fetch_pet",
      { id: "7" },
      { timeoutMs: 5000 },
    );
    expect(out.value).toEqual({ id: "7" });
  });
});
