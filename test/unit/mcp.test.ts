import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { initialize, MCP_HEADERS, request, rpc } from "../helpers/app";

async function body(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

describe("MCP streamable HTTP: sessions", () => {
  it("issues Mcp-Session-Id on initialize and records it in the session Durable Object", async () => {
    const id = await initialize();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(id));
    expect(await stub.touch()).toMatchObject({
      id,
      protocolVersion: "2025-11-25",
      client: { name: "unit-test", version: "1.0.0" },
    });
  });

  it("serves later requests of the session and lists the tier-1 tools", async () => {
    const id = await initialize();
    const res = await rpc("tools/list", {}, { "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-11-25" });
    expect(res.status).toBe(200);
    const json = await body(res);
    const tools = (
      json.result as { tools: Array<{ name: string; inputSchema: unknown; outputSchema: unknown }> }
    ).tools;
    expect(tools.map((t) => t.name)).toContain("execute");
  });

  it("wants a session id on requests other than initialize (400) and knows unknown ones (404)", async () => {
    const missing = await rpc("tools/list");
    expect(missing.status).toBe(400);
    expect(await body(missing)).toMatchObject({ error: { code: -32600 } });
    const unknown = await rpc("tools/list", {}, { "Mcp-Session-Id": crypto.randomUUID() });
    expect(unknown.status).toBe(404);
    expect(await body(unknown)).toMatchObject({ error: { code: -32001 } });
    expect((await rpc("tools/list", {}, { "Mcp-Session-Id": "../../etc" })).status).toBe(404);
  });

  it("ends a session on DELETE: its state is removed and it answers 404 afterwards", async () => {
    const id = await initialize();
    const del = await request("/mcp", {
      method: "DELETE",
      headers: { ...MCP_HEADERS, "Mcp-Session-Id": id },
    });
    expect(del.status).toBe(204);
    expect((await rpc("tools/list", {}, { "Mcp-Session-Id": id })).status).toBe(404);
    expect(
      (await request("/mcp", { method: "DELETE", headers: { ...MCP_HEADERS, "Mcp-Session-Id": id } })).status,
    ).toBe(404);
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(id));
    expect(await stub.touch()).toBeNull();
  });

  it("refuses an unsupported Mcp-Protocol-Version with 400", async () => {
    const id = await initialize();
    const res = await rpc("tools/list", {}, { "Mcp-Session-Id": id, "Mcp-Protocol-Version": "1999-01-01" });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await body(res))).toMatch(/Unsupported protocol version/);
  });

  it("opens no session when initialize fails", async () => {
    const res = await rpc("initialize", { protocolVersion: 7 });
    expect(res.headers.get("Mcp-Session-Id")).toBeNull();
    expect(await body(res)).toMatchObject({ error: { code: expect.any(Number) } });
  });

  it("negotiates an older protocol version", async () => {
    const res = await rpc("initialize", {
      protocolVersion: "2025-03-26",
      capabilities: {},
      clientInfo: { name: "old", version: "0" },
    });
    expect(await body(res)).toMatchObject({ result: { protocolVersion: "2025-03-26" } });
  });

  it("answers GET with 405 (no server-to-client stream yet)", async () => {
    const res = await request("/mcp", {
      method: "GET",
      headers: { ...MCP_HEADERS, Accept: "text/event-stream" },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST, DELETE");
  });
});

describe("MCP streamable HTTP: malformed input", () => {
  it("answers bad JSON with a JSON-RPC parse error, and not-JSON-RPC with 400", async () => {
    const bad = await request("/mcp", { method: "POST", headers: MCP_HEADERS, body: "{" });
    expect(bad.status).toBe(400);
    expect(await body(bad)).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    const id = await initialize();
    const wrong = await request("/mcp", {
      method: "POST",
      headers: { ...MCP_HEADERS, "Mcp-Session-Id": id },
      body: JSON.stringify({ hello: 1 }),
    });
    expect(wrong.status).toBe(400);
  });

  it("answers a tool call with wrong argument types with an error naming the field", async () => {
    const id = await initialize();
    const res = await rpc(
      "tools/call",
      { name: "execute", arguments: { code: 5 } },
      { "Mcp-Session-Id": id },
    );
    const text = JSON.stringify(await body(res));
    expect(text).toMatch(/code/);
    expect(text).toMatch(/string/i);
  });
});

describe("MCP execute tool", () => {
  it("returns structuredContent, the same as JSON text, and isError when the code failed", async () => {
    const id = await initialize();
    const ok = await body(
      await rpc(
        "tools/call",
        { name: "execute", arguments: { code: "return 6 * 7" } },
        { "Mcp-Session-Id": id },
      ),
    );
    const okResult = ok.result as {
      structuredContent: unknown;
      content: Array<{ text: string }>;
      isError: boolean;
    };
    expect(okResult.structuredContent).toMatchObject({ result: 42, logs: [], stats: { toolCalls: 0 } });
    expect(JSON.parse(okResult.content[0]!.text)).toEqual(okResult.structuredContent);
    expect(okResult.isError).toBe(false);

    const failed = await body(
      await rpc(
        "tools/call",
        { name: "execute", arguments: { code: "\nthrow new Error('no')" } },
        { "Mcp-Session-Id": id },
      ),
    );
    expect(failed.result).toMatchObject({
      isError: true,
      structuredContent: { error: { name: "Error", message: "no", line: 2 } },
    });
  });
});
