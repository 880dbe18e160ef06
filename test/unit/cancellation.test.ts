import { describe, expect, it } from "vitest";
import type { ExecuteResult } from "../../shared/contract/execute";
import { AUTH, initialize, MCP_HEADERS, request } from "../helpers/app";
import { testContext } from "../helpers/context";
import { execute } from "../helpers/execute";

// Cancellation of a running execution (contract "Approvals, progress, cancellation"): by the
// caller's signal (a REST client that drops its request), and by notifications/cancelled that
// arrives in another request of the MCP session. Code that would run for 10 s.
const LOOP = "for (;;) await new Promise((r) => setTimeout(r, 20));";

describe("a cancelled execution", () => {
  it("stops when its caller's signal aborts, with a CancelledError, long before its timeout", async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const started = Date.now();
    const result = await execute(
      testContext(),
      { code: LOOP, timeoutMs: 10_000 },
      {
        signal: abort.signal,
      },
    );
    expect(result.error?.name).toBe("CancelledError");
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("stops when the REST request's signal aborts (POST /v1/execute)", async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const started = Date.now();
    const res = await request("/v1/execute", {
      method: "POST",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ code: LOOP, timeoutMs: 10_000 }),
      signal: abort.signal,
    });
    expect(((await res.json()) as ExecuteResult).error?.name).toBe("CancelledError");
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("stops on notifications/cancelled sent in another request of the MCP session", async () => {
    const session = await initialize();
    const headers = { ...MCP_HEADERS, "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" };
    const started = Date.now();
    const running = request("/mcp", {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "run-1",
        method: "tools/call",
        params: { name: "execute", arguments: { code: LOOP, timeoutMs: 10_000 } },
      }),
    });
    await new Promise((r) => setTimeout(r, 500));
    const cancel = await request("/mcp", {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: "run-1", reason: "user pressed Esc" },
      }),
    });
    expect(cancel.status).toBe(202);
    const answer = (await (await running).json()) as { result: { structuredContent: ExecuteResult } };
    expect(answer.result.structuredContent.error?.name).toBe("CancelledError");
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("does not stop an execution of another request id, nor one that started after the cancellation", async () => {
    const session = await initialize();
    const headers = { ...MCP_HEADERS, "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" };
    await request("/mcp", {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } }),
    });
    const res = await request("/mcp", {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 5,
        method: "tools/call",
        params: {
          name: "execute",
          arguments: { code: "await new Promise((r) => setTimeout(r, 400)); return 'done';" },
        },
      }),
    });
    const answer = (await res.json()) as { result: { structuredContent: ExecuteResult } };
    expect(answer.result.structuredContent.result).toBe("done");
  });
});
