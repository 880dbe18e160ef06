import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH, connect, execute, gatewayUrl, PROMPT_MS, postMcp } from "./client";

// Spec references are to MCP 2025-11-25, basic/transports (Streamable HTTP) and server/tools.
let client: Client;
let transport: StreamableHTTPClientTransport;

beforeAll(async () => {
  ({ client, transport } = await connect());
});
afterAll(async () => {
  await client?.close();
});

describe("lifecycle and discovery", () => {
  it("initializes over streamable HTTP and gets a session id (transports: session management)", () => {
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()).toMatchObject({ name: "code-mcp-gateway" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {} });
  });

  it("lists execute with input and output schemas (server/tools: listing tools)", async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "execute");
    expect(tool?.inputSchema).toMatchObject({ type: "object", required: ["code"] });
    expect(tool?.outputSchema).toMatchObject({ type: "object" });
  });
});

describe("execute", () => {
  it("runs TypeScript and returns the value with logs (server/tools: structured content)", async () => {
    const r = await execute(client, {
      code: "type Row = { n: number };\nconst rows: Row[] = [1, 2, 3].map((n) => ({ n }));\nconsole.info('rows', rows.length);\nreturn rows.reduce((s, r) => s + r.n, 0);",
    });
    expect(r).toMatchObject({
      result: 6,
      logs: ["[info] rows 3"],
      isError: false,
      stats: { toolCalls: 0, truncated: false },
    });
  });

  it("runs JavaScript", async () => {
    expect(
      (await execute(client, { code: "return typeof structuredClone", language: "javascript" })).result,
    ).toBe("function");
  });

  it("reports a thrown error with its line as a tool error, not a protocol error (server/tools: error handling)", async () => {
    const r = await execute(client, { code: "const a = 1;\n\nthrow new TypeError('bad input');" });
    expect(r.isError).toBe(true);
    expect(r.error).toMatchObject({ name: "TypeError", message: "bad input", line: 3 });
  });

  it("reports a syntax error with line and column", async () => {
    const r = await execute(client, { code: "const a = 1;\nconst b = a +;\nreturn b;" });
    expect(r.error).toMatchObject({ name: "SyntaxError", line: 2, column: expect.any(Number) });
  });

  it.each([
    ["while (true) {}", "while (true) {}"],
    ["for (;;) {}", "for (;;) {}"],
    ["do … while (true)", "do {} while (true)"],
    [
      "a loop inside nested functions",
      "const f = () => { const g = function () { while (true) {} }; g(); };\nf();",
    ],
    ["while (true) { await null }", "while (true) { await null }"],
  ])("stops %s with a clear error and serves the next request at once", async (_name, code) => {
    const r = await execute(client, { code, timeoutMs: 500 });
    expect(r.error).toMatchObject({
      name: "TimeoutError",
      message: expect.stringMatching(/timed out after 500 ms/),
    });
    const started = Date.now();
    expect((await execute(client, { code: "return 'still here'" })).result).toBe("still here");
    expect(Date.now() - started).toBeLessThan(PROMPT_MS);
  });

  it("ends deep recursion as an error", async () => {
    const r = await execute(client, { code: "const f = (n: number): number => f(n + 1);\nreturn f(0);" });
    expect(r.error?.name).toBe("RangeError");
  });

  it("blocks fetch", async () => {
    const r = await execute(client, { code: "return (await fetch('https://example.com')).status" });
    expect(r.error?.message).toMatch(/no network access/);
  });

  it("blocks eval and new Function", async () => {
    expect((await execute(client, { code: "return eval('2')" })).error?.name).toBe("EvalError");
    expect((await execute(client, { code: "return new Function('return 2')()" })).error?.name).toBe(
      "EvalError",
    );
  });

  it("truncates big output to the cap and says so", async () => {
    const r = await execute(client, {
      code: "for (let i = 0; i < 3000; i++) console.log(i, 'x'.repeat(20));\nreturn 'y'.repeat(30000);",
    });
    expect(r.stats.truncated).toBe(true);
    const size = JSON.stringify(r.result).length + r.logs.reduce((s, l) => s + l.length, 0);
    expect(size).toBeLessThanOrEqual(24_200);
    expect(String(r.result)).toMatch(/^y+$/);
    expect(r.truncation).toMatchObject({
      totalChars: 30_002,
      cuts: [{ path: "result", of: 30_000, unit: "characters" }],
    });
  });

  it("leaks nothing between executions", async () => {
    await execute(client, { code: "globalThis.secret = 42; Array.prototype.evil = 1; return 1" });
    const r = await execute(client, { code: "return [typeof globalThis.secret, typeof [].evil]" });
    expect(r.result).toEqual(["undefined", "undefined"]);
  });
});

describe("HTTP surface", () => {
  it("serves POST /v1/execute with the same result object", async () => {
    const res = await fetch(`${gatewayUrl()}/v1/execute`, {
      method: "POST",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ code: "console.warn('w');\nreturn { sum: 1 + 2 }" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      result: { sum: 3 },
      logs: ["[warn] w"],
      stats: { toolCalls: 0, truncated: false },
    });
  });

  it("refuses a foreign Origin with 403 (transports: security warning, Origin validation)", async () => {
    const res = await postMcp(
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { Origin: "https://attacker.example" },
    );
    expect(res.status).toBe(403);
  });

  it("refuses a missing key with 401 and a Bearer challenge", async () => {
    const res = await fetch(`${gatewayUrl()}/v1/execute`, { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toBe(
      `Bearer realm="mcp", resource_metadata="${gatewayUrl()}/.well-known/oauth-protected-resource"`,
    );
  });

  it("answers 404 for a session after DELETE (transports: session management, rule 4 and 5)", async () => {
    const own = await connect();
    const id = own.transport.sessionId!;
    await own.transport.terminateSession();
    const res = await postMcp({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { "Mcp-Session-Id": id });
    expect(res.status).toBe(404);
    await own.client.close();
  });
});
