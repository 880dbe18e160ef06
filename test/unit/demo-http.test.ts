import { describe, expect, it } from "vitest";
import worker from "../../workers/demo-upstream/index";
import { demo, type RpcResponse } from "../helpers/demo-mcp";

// Read-only tests share one store.
const shared = demo();

describe("demo upstream: HTTP", () => {
  it("GET /health counts the records", async () => {
    const res = await shared.app.fetch(new Request("http://demo/health"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      records: { customers: 2000, tickets: 10000, comments: shared.store.counts().comments, agents: 25 },
    });
  });

  it("the Worker's default export serves the same app over the isolate's shared store", async () => {
    const res = await worker.fetch(new Request("http://demo/health"));
    expect(await res.json()).toMatchObject({ status: "ok", records: { tickets: 10000 } });
  });

  it("answers GET and DELETE /mcp with 405 JSON, unknown routes with 404 JSON", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await shared.app.fetch(new Request("http://demo/mcp", { method }));
      expect(res.status).toBe(405);
      expect(res.headers.get("Allow")).toBe("POST");
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
    }
    const missing = await shared.app.fetch(new Request("http://demo/nope"));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: "not_found" } });
  });

  it("refuses malformed JSON, a wrong Accept header and oversized bodies", async () => {
    const parse = await shared.post("{not json");
    expect(parse.status).toBe(400);
    expect(await parse.json()).toMatchObject({ error: { code: -32700 } });
    const accept = await shared.post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), {
      "Content-Type": "application/json",
      Accept: "text/html",
    });
    expect(accept.status).toBe(406);
    const big = await shared.post(JSON.stringify({ padding: "x".repeat(1_100_000) }));
    expect(big.status).toBe(413);
  });

  it("survives hostile arguments on every tool: a result or an invalid-params error, never a crash", async () => {
    const tools = ((await shared.rpc("tools/list")).result as { tools: Array<{ name: string }> }).tools;
    const d = demo();
    const inputs: unknown[] = [
      null,
      [],
      "text",
      0,
      { id: null, ticketId: 5, customerId: {}, query: "", limit: -1, cursor: 7 },
      { limit: 1e308, cursor: "e30", query: "a".repeat(10_000) },
      JSON.parse('{"__proto__": {"status": "open"}, "constructor": "x", "tags": ["t", "t", "t"]}'),
      { tags: Array.from({ length: 50 }, () => "t"), body: "\u0000\ud800", subject: { toString: 1 } },
      { id: "tkt_000001", cursor: btoa('{"v":1,"after":"x","query":1}'), groupBy: "status", assignee: "" },
    ];
    for (const tool of tools) {
      for (const args of inputs) {
        const res = await d.post(
          JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: tool.name, arguments: args },
          }),
        );
        const what = `${tool.name} ${JSON.stringify(args)}`;
        expect(res.status, what).toBe(200);
        const body = (await res.json()) as RpcResponse;
        // Arguments that are not an object fail the SDK's request schema: -32603 with the zod issue.
        if (body.error) expect(body.error.message, what).toMatch(/params[\s\S]*arguments/);
        else if (!body.result?.isError) expect(body.result?.structuredContent, what).toBeDefined();
      }
    }
  });
});
