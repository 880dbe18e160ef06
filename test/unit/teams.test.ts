import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { keyHolder } from "../../workers/gateway/context/api-key";
import type { GatewayEnv } from "../../workers/gateway/env";
import { request } from "../helpers/app";
import { TEST_API_KEY } from "../helpers/keys";
import { admin, teamWithKey } from "../helpers/teams";

const run = (key: string, code: string) =>
  request("/v1/execute", {
    method: "POST",
    headers: { "X-API-Key": key, "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });

const MCP = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
async function initialize(key: string): Promise<string> {
  const res = await request("/mcp", {
    method: "POST",
    headers: { ...MCP, "X-API-Key": key },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  return res.headers.get("Mcp-Session-Id")!;
}

describe("admin API", () => {
  it("needs the admin token", async () => {
    expect((await request("/admin/teams/acme", { method: "GET" })).status).toBe(401);
    expect(
      (await request("/admin/teams/acme", { headers: { Authorization: `Bearer ${TEST_API_KEY}` } })).status,
    ).toBe(401);
  });

  it.each([
    ["a bad limit", { limits: { timeoutMs: "fast" } }, /limits\.timeoutMs/],
    ["an unknown field", { colour: "blue" }, /colour/],
    ["a bad server", { servers: { gh: { url: "ftp://x" } } }, /servers\.gh\.url: must be an http\(s\) URL/],
    ["a bad glob list", { allow: "demo.*" }, /allow: /],
  ])("answers %s with 400 naming the field", async (_name, body, message) => {
    const res = await admin("PUT", "/teams/acme", body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(message);
  });

  it("refuses a bad team name", async () => {
    expect((await admin("PUT", "/teams/Not.Valid", {})).status).toBe(400);
  });

  it("creates a team and a key shown once; stores only its hash; lists keys without secrets", async () => {
    const { id, key } = await teamWithKey("keyed");
    expect(key).toMatch(/^cmk_[A-Za-z0-9_-]{43}$/);
    const stored = await env.TEAMS.list();
    for (const entry of stored.keys) {
      expect(entry.name).not.toContain(key);
      expect(await env.TEAMS.get(entry.name)).not.toContain(key);
    }
    const listed = (await (await admin("GET", "/teams/keyed/keys")).json()) as {
      keys: Array<Record<string, unknown>>;
    };
    expect(listed.keys).toEqual([
      { id, name: "ci", user: id, prefix: key.slice(0, 10), createdAt: expect.any(Number) },
    ]);
  });

  it("a key may name its user; without one it is a user of its own; a bad user is a 400 naming it", async () => {
    await admin("PUT", "/teams/users", {});
    const made = await admin("POST", "/teams/users/keys", { name: "laptop", user: "ana@example.com" });
    expect(made.status).toBe(201);
    const key = (await made.json()) as { id: string; user: string };
    expect(key.user).toBe("ana@example.com");
    const listed = (await (await admin("GET", "/teams/users/keys")).json()) as {
      keys: Array<{ user: string }>;
    };
    expect(listed.keys.map((k) => k.user)).toEqual(["ana@example.com"]);
    for (const user of ["", " ana", "ana\n", "x".repeat(201)]) {
      const bad = await admin("POST", "/teams/users/keys", { name: "x", user });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/user/);
    }
  });

  it("revocation takes effect on the next request", async () => {
    const { id, key } = await teamWithKey("revoked");
    expect((await run(key, "return 1")).status).toBe(200);
    expect((await admin("DELETE", `/keys/${id}`)).status).toBe(204);
    const after = await run(key, "return 1");
    expect(after.status).toBe(401);
    expect(after.headers.get("WWW-Authenticate")).toBe(
      'Bearer realm="mcp", resource_metadata="http://localhost/.well-known/oauth-protected-resource"',
    );
  });

  it("reads a stored key from KV once per few seconds, and forgets it when it is revoked", async () => {
    const { id, key } = await teamWithKey("memo");
    const reads: string[] = [];
    const teams = new Proxy(env.TEAMS, {
      get: (target, name) =>
        name === "get"
          ? (k: string, type: "json") => {
              reads.push(k);
              return target.get(k, type);
            }
          : Reflect.get(target, name),
    });
    const counted = { ...env, TEAMS: teams } as GatewayEnv;
    expect((await keyHolder(counted, undefined, key))?.team).toBe("memo");
    expect((await keyHolder(counted, undefined, key))?.team).toBe("memo");
    expect(reads.filter((k) => k.startsWith("apikey:"))).toHaveLength(1);
    expect((await admin("DELETE", `/keys/${id}`)).status).toBe(204);
    expect(await keyHolder(counted, undefined, key)).toBeNull();
  });

  it("deleting a team revokes its keys", async () => {
    const { key } = await teamWithKey("gone");
    expect((await run(key, "return 1")).status).toBe(200);
    expect((await admin("DELETE", "/teams/gone")).status).toBe(204);
    expect((await run(key, "return 1")).status).toBe(401);
    expect((await admin("GET", "/teams/gone")).status).toBe(404);
  });
});

describe("isolation between teams", () => {
  it("binds a session to its team: another team's key gets 404", async () => {
    const a = await teamWithKey("team-a");
    const b = await teamWithKey("team-b");
    const session = await initialize(a.key);
    const list = (key: string) =>
      request("/mcp", {
        method: "POST",
        headers: { ...MCP, "X-API-Key": key, "Mcp-Session-Id": session },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
    expect((await list(a.key)).status).toBe(200);
    expect((await list(b.key)).status).toBe(404);
    expect((await list(TEST_API_KEY)).status).toBe(404);
  });

  it("hides denied tools from discovery and refuses them from code, REST and MCP", async () => {
    const { key } = await teamWithKey("limited", {
      servers: { demo: { service: "DEMO" } },
      allow: ["demo.list_*", "demo.get_ticket"],
      deny: ["demo.list_agents"],
    });
    const found = await request("/v1/tools?detail=name&limit=100", { headers: { "X-API-Key": key } });
    const names = ((await found.json()) as { tools: Array<{ name: string }> }).tools
      .map((t) => t.name)
      .sort();
    expect(names).toEqual(["demo.get_ticket", "demo.list_customers", "demo.list_tickets"]);
    const refused = await request("/v1/tools/demo.create_ticket", { headers: { "X-API-Key": key } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: {
        code: "tool_not_allowed",
        message:
          'demo.create_ticket is not allowed for this team (not in allow "demo.list_*", "demo.get_ticket"); ask the team\'s admin, or use another tool',
      },
    });
    expect((await request("/v1/tools/demo.no_such_tool", { headers: { "X-API-Key": key } })).status).toBe(
      404,
    );
    const denied = (await (await run(key, "return await tools.demo.list_agents({})")).json()) as {
      error: { name: string; message: string };
    };
    expect(denied.error).toMatchObject({
      name: "ToolNotAllowedError",
      message:
        'demo.list_agents is not allowed for this team (deny "demo.list_agents"); ask the team\'s admin, or use another tool',
    });
    const allowed = (await (
      await run(key, "return (await tools.demo.list_tickets({ limit: 1 })).tickets.length")
    ).json()) as { result: number };
    expect(allowed.result).toBe(1);
    const keys = (await env.SCHEMA_CACHE.list({ prefix: "tools:v1:limited:" })).keys;
    expect(keys).toHaveLength(1);
    const session = await initialize(key);
    const call = (name: string, args: unknown) =>
      request("/mcp", {
        method: "POST",
        headers: { ...MCP, "X-API-Key": key, "Mcp-Session-Id": session },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: { name, arguments: args },
        }),
      }).then(
        (r) => r.json() as Promise<{ result: { content: Array<{ text: string }>; isError?: boolean } }>,
      );
    const viaMcp = JSON.parse(
      (await call("search_tools", { detail: "name", limit: 100 })).result.content[0]!.text,
    ) as {
      tools: Array<{ name: string }>;
    };
    expect(viaMcp.tools.map((t) => t.name).sort()).toEqual(names);
    const definition = (await call("get_tool_definition", { name: "demo.list_agents" })).result;
    expect(definition.isError).toBe(true);
    expect(JSON.parse(definition.content[0]!.text)).toMatchObject({
      error: { name: "ToolNotAllowedError", message: expect.stringContaining('(deny "demo.list_agents")') },
    });
  });

  it("gives a team without servers no upstream tools", async () => {
    const { key } = await teamWithKey("empty");
    const found = (await (
      await request("/v1/tools?detail=name", { headers: { "X-API-Key": key } })
    ).json()) as { total: number };
    expect(found.total).toBe(0);
  });

  it("lets a team's code fetch only its egress hosts", async () => {
    const { key } = await teamWithKey("egressing", { egress: ["api.example.com"] });
    const code =
      "return [await (await fetch('https://api.example.com/')).text(), (await fetch('https://x.example.org/')).status]";
    const r = (await (await run(key, code)).json()) as { result: unknown };
    expect(r.result).toEqual(["reached api.example.com", 403]);
    const closed = (await (await run(TEST_API_KEY, code)).json()) as { error: { message: string } };
    expect(closed.error.message).toMatch(/no network access/);
  });

  it("applies the team's limits over the deployment's", async () => {
    const { key } = await teamWithKey("small", { limits: { maxOutputChars: 1_000, maxToolCalls: 1 } });
    const big = (await (await run(key, "return 'x'.repeat(5000)")).json()) as {
      stats: { truncated: boolean };
      result: string;
    };
    expect(big.stats.truncated).toBe(true);
    expect(big.result.length).toBeLessThan(1_100);
  });
});
