import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connect, execute, healthMs, PROMPT_MS, postMcp, teamWithKey } from "./client";

// The sandbox boundary tried as an attacker would, against the local stack `npm run dev` runs: the
// gateway in one workerd process, the sandbox host in another (restarted when it hangs or dies).
let client: Client;

beforeAll(async () => {
  ({ client } = await connect());
});
afterAll(async () => {
  await client?.close();
});

describe("code stays inside its function", () => {
  const escapes = [
    "return 1;\n}\nlet i = 0; while (true) { i++; }\nfunction _() {",
    '}\nimport { env } from "cloudflare:workers";\nexport const x = env;\nfunction _() {',
    "class A { m() {} } }\nclass B { static { for (;;) {} } }\nfunction _() {",
    "const x: number = 1; }\nwhile (true) {}\nfunction f(): void {",
  ];
  for (const [i, code] of escapes.entries()) {
    it(`refuses escape ${i + 1} before running anything, and serves the next request at once`, async () => {
      const language = i < 3 ? "javascript" : "typescript";
      const r = await execute(client, { code, language });
      expect(r.isError).toBe(true);
      expect(r.error).toMatchObject({ name: "SyntaxError" });
      expect(r.error?.message).toMatch(/closes the function your code runs in/);
      expect(await healthMs()).toBeLessThan(PROMPT_MS);
      const started = Date.now();
      expect((await execute(client, { code: "return 1" })).result).toBe(1);
      expect(Date.now() - started).toBeLessThan(PROMPT_MS);
    });
  }
});

describe("hostile data and caps", () => {
  it("maps a 100,000-character stack without stalling anything", async () => {
    const started = Date.now();
    const r = await execute(client, {
      code: "const e = new Error('x'); e.stack = 'E\\n    at ' + 'a'.repeat(100000); throw e;",
    });
    expect(r.error?.name).toBe("Error");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  // The isolate engine has the isolate's 128 MB; a QuickJS interpreter has EXEC_MEMORY_MB (32).
  const huge = inject("engine") === "isolate" ? 60_000_000 : 12_000_000;
  it(`cuts a ${huge / 1e6} MB return value in the sandbox`, async () => {
    const r = await execute(client, { code: `return 'x'.repeat(${huge})` });
    expect(r.stats.truncated).toBe(true);
    expect(JSON.stringify(r).length).toBeLessThan(60_000);
  });

  it.runIf(inject("engine") === "quickjs")(
    "ends a value over the interpreter's memory with ResourceLimitError",
    async () => {
      const r = await execute(client, { code: "return 'x'.repeat(60_000_000)" });
      expect(r.error?.name).toBe("ResourceLimitError");
      expect(r.error?.message).toMatch(/ran out of memory \(its limit is 32 MB\)/);
    },
  );

  it("counts tool calls in the gateway, whatever the code does to built-ins", async () => {
    // A team whose limit is 5 calls (the default 200 is the same count, 40 times slower to reach).
    const { client: limited } = await connect(
      await teamWithKey("e2e-boundary-calls", {
        servers: { demo: { service: "DEMO" } },
        limits: { maxToolCalls: 5 },
      }),
    );
    const code = `Array.prototype.push = () => 0;
let ok = 0, refused = "";
for (let i = 0; i < 8; i++) {
  try { await tools.demo.ticket_stats({ groupBy: "status" }); ok++; } catch (e) { refused = e.name + ": " + e.message; }
}
return { ok, refused };`;
    const r = await execute(limited, { code, timeoutMs: 60_000 });
    await limited.close();
    expect(r.result).toEqual({
      ok: 5,
      refused: expect.stringMatching(
        /^LimitError: demo\.ticket_stats: limit of 5 tool calls per execution reached; do fewer calls .*\(operator setting: EXEC_MAX_TOOL_CALLS\)$/,
      ),
    });
    expect(r.stats.toolCalls).toBe(5);
  });
});

describe("JSON-RPC batches cannot skip the session or the rate limit", () => {
  const post = postMcp;
  const initialize = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "batch", version: "1" } },
  });
  const executeCall = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "execute", arguments: { code: "return 'ran'" } },
  });

  it("refuses [initialize, tools/call execute] without running the tool (basic: JSON-RPC batching)", async () => {
    const res = await post([initialize(1), executeCall(2)]);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toMatch(/initialize must be sent alone/);
    expect(res.headers.get("Mcp-Session-Id")).toBeNull();
    expect(await healthMs()).toBeLessThan(PROMPT_MS);
  });

  it("refuses any batch on a 2025-11-25 session, and serves the next request", async () => {
    const init = await post(initialize(1));
    const session = init.headers.get("Mcp-Session-Id") ?? "";
    expect(session).not.toBe("");
    const headers = { "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" };
    const batch = await post(
      [executeCall(2), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } }],
      headers,
    );
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as { error: { message: string } }).error.message).toMatch(
      /batches are not part of MCP protocol version 2025-11-25/,
    );
    const single = await post(executeCall(3), headers);
    expect(single.status).toBe(200);
  });
});
