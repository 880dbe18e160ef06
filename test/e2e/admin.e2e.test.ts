import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/wrangler-dev.mjs";
import { TEST_ADMIN_TOKEN } from "../helpers/keys";
import { connect, execute, gatewayUrl } from "./client";

// The operators' CLI (`npm run admin`, scripts/admin.mjs) against the real gateway: a team and a key
// made from the command line, the key used, listed, revoked.
const TEAM = "e2e-admin";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node scripts/admin.mjs --url <gateway> …args` with the admin token in the environment. */
function admin(args: string[], token: string = TEST_ADMIN_TOKEN): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, "scripts/admin.mjs"), "--url", gatewayUrl(), ...args],
      { env: { ...process.env, ADMIN_TOKEN: token, GATEWAY_URL: "" }, timeout: 50_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function run(key: string, code: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${gatewayUrl()}/v1/execute`, {
    method: "POST",
    headers: { "X-API-Key": key, "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("npm run admin", () => {
  it("creates a team and a key, uses the key, lists it, revokes it", async () => {
    const created = await admin([
      "teams",
      "create",
      TEAM,
      "--servers",
      JSON.stringify({ demo: { service: "DEMO" } }),
      "--allow",
      "demo.list_*,demo.get_customer",
      "--deny",
      "demo.list_agents",
      "--limits",
      '{"maxToolCalls":5}',
      "--tools",
      '{"demo.list_tickets":{"name":"list_open_tickets","description":"Open tickets."}}',
      "--egress",
      "api.example.com,*.example.org:8443",
    ]);
    expect(created.stderr).toBe("");
    expect(created).toMatchObject({ code: 0, stdout: expect.stringContaining(`Created team ${TEAM}`) });

    const shown = await admin(["teams", "show", TEAM, "--json"]);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      name: TEAM,
      servers: { demo: { service: "DEMO" } },
      allow: ["demo.list_*", "demo.get_customer"],
      deny: ["demo.list_agents"],
      limits: { maxToolCalls: 5 },
      tools: { "demo.list_tickets": { name: "list_open_tickets", description: "Open tickets." } },
      egress: ["api.example.com", "*.example.org:8443"],
    });

    const made = await admin(["keys", "create", TEAM, "--name", "ci"]);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain("only time the key is shown");
    const key = /^\s+(cmk_[A-Za-z0-9_-]+)\s*$/m.exec(made.stdout)?.[1];
    const id = /\b(key_[0-9a-f]+)\b/.exec(made.stdout)?.[1];
    expect(key).toBeDefined();
    expect(id).toBeDefined();

    // The key works, on the team's own servers, with its allow/deny lists and its renamed tool.
    const ok = await run(key!, "return (await tools.demo.list_open_tickets({ limit: 2 })).tickets.length");
    expect(ok).toMatchObject({ status: 200, body: { result: 2 } });
    const denied = await run(key!, "return await tools.demo.list_agents({})");
    expect(denied.body).toMatchObject({
      error: { name: "ToolNotAllowedError", message: expect.stringContaining('(deny "demo.list_agents")') },
    });

    const listed = await admin(["keys", "list", TEAM]);
    expect(listed.code).toBe(0);
    // id, name, user (a key without one is its own user: its id), prefix
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+ci\\s+${id}\\s+${key!.slice(0, 10)}`, "m"));
    expect(listed.stdout).not.toContain(key);

    const revoked = await admin(["keys", "revoke", id!]);
    expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining(`Revoked key ${id}`) });
    const refused = await run(key!, "return 1");
    expect(refused.status).toBe(401);
    expect((await admin(["keys", "list", TEAM])).stdout).toContain(`Team ${TEAM} has no keys.`);

    expect(await admin(["teams", "delete", TEAM])).toMatchObject({ code: 0 });
    const gone = await admin(["teams", "show", TEAM]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`HTTP 404 not_found: No team "${TEAM}"`);
  });

  it("warns of a glob that matches no tool; a denied tool called from code names its rule", async () => {
    const team = `${TEAM}-policy`;
    const created = await admin([
      "teams",
      "create",
      team,
      "--servers",
      JSON.stringify({ demo: { service: "DEMO" } }),
      "--deny",
      "demo.updat_ticket,demo.update_*",
    ]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Created team ${team}`);
    expect(created.stderr).toBe(
      `warning: deny "demo.updat_ticket" matches no tool of the team's servers (demo); check its spelling\n`,
    );
    const made = await admin(["keys", "create", team, "--name", "sdk"]);
    const key = /^\s+(cmk_[A-Za-z0-9_-]+)\s*$/m.exec(made.stdout)?.[1];
    expect(key).toBeDefined();

    const { client } = await connect({ Authorization: `Bearer ${key}` });
    try {
      const r = await execute(client, {
        code: `const out = [];
for (const call of [() => tools.demo.update_ticket({ id: 1, status: "closed" }), () => callTool("demo.update_ticket", {})]) {
  try { await call(); out.push("called"); } catch (e) { out.push(e.name + ": " + e.message); }
}
return out;`,
      });
      const refused = `ToolNotAllowedError: demo.update_ticket is not allowed for this team (deny "demo.update_*"); ask the team's admin, or use another tool`;
      expect(r.result).toEqual([refused, refused]);

      const definition = await client.callTool({
        name: "get_tool_definition",
        arguments: { name: "demo.update_ticket" },
      });
      expect(definition.isError).toBe(true);
      const text = (definition.content as Array<{ text: string }>)[0]!.text;
      expect(JSON.parse(text)).toMatchObject({ error: { name: "ToolNotAllowedError" } });

      const found = await client.callTool({
        name: "search_tools",
        arguments: { query: "update ticket", detail: "name", limit: 100 },
      });
      const listed = JSON.parse((found.content as Array<{ text: string }>)[0]!.text) as {
        tools: Array<{ name: string }>;
      };
      const names = listed.tools.map((t) => t.name);
      expect(names).toContain("demo.get_ticket");
      expect(names).not.toContain("demo.update_ticket");
    } finally {
      await client.close();
      await admin(["teams", "delete", team]);
    }
  });

  it("shows the server's status and message and exits 1", async () => {
    const wrongToken = await admin(["teams", "show", TEAM], "not-the-admin-token-at-all");
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain("HTTP 401 unauthorized");

    const badName = await admin(["teams", "create", "Not_A_Team"]);
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain("HTTP 400 invalid_team");

    const badServers = await admin(["teams", "create", TEAM, "--servers", '{"x":{"url":"ftp://nope"}}']);
    expect(badServers.code).toBe(1);
    expect(badServers.stderr).toMatch(/HTTP 400 invalid_request: Invalid servers: servers\.x\.url/);

    const badTools = await admin([
      "teams",
      "create",
      TEAM,
      "--tools",
      '{"demo.get_customer":{"name":"has space"}}',
    ]);
    expect(badTools.code).toBe(1);
    expect(badTools.stderr).toMatch(/HTTP 400 invalid_request: .*tools/);
    const notJson = await admin(["teams", "create", TEAM, "--tools", "{nope"]);
    expect(notJson).toMatchObject({ code: 1, stderr: expect.stringContaining("--tools: not valid JSON") });

    const noTeam = await admin(["keys", "create", "no-such-team", "--name", "x"]);
    expect(noTeam.code).toBe(1);
    expect(noTeam.stderr).toContain('HTTP 404 not_found: No team "no-such-team"');
  });

  it("lists a team's connections and ends one, naming what is missing", async () => {
    const team = `${TEAM}-conn`;
    expect((await admin(["teams", "create", team])).code).toBe(0);
    try {
      const listed = await admin(["connections", "list", team]);
      expect(listed).toMatchObject({ code: 0, stdout: `Team ${team} has no connections.\n` });
      expect(JSON.parse((await admin(["connections", "list", team, "--json"])).stdout)).toEqual({
        connections: [],
      });
      const none = await admin(["connections", "end", team, "alice@example.com", "linear"]);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(
        `HTTP 404 not_found: No connection of alice@example.com to linear in team ${team}`,
      );
    } finally {
      await admin(["teams", "delete", team]);
    }
  });

  it("refuses bad usage before calling the gateway", async () => {
    const help = await admin(["--help"]);
    expect(help).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("keys create <team> --name <name>"),
    });
    expect((await admin(["keys", "create", TEAM])).stderr).toContain("needs --name");
    expect((await admin(["teams", "create", TEAM, "--limits", "{nope"])).stderr).toContain(
      "--limits: not valid JSON",
    );
    expect((await admin(["teams", "frobnicate", TEAM])).code).toBe(1);
  });
});
