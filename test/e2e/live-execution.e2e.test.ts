import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecuteResult } from "../../shared/contract/execute";
import { AUTH, execute, gatewayUrl, PROMPT_MS, postMcp, teamWithKey } from "./client";

// An execution that talks to its client while it runs (contract "Approvals, progress,
// cancellation"): progress and console lines as notifications on the execute's stream, and
// notifications/cancelled stopping it.
let client: Client;
const logs: Array<{ at: number; data: unknown; level: string }> = [];

beforeAll(async () => {
  client = new Client({ name: "e2e-live", version: "1.0.0" });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push({ at: Date.now(), data: n.params.data, level: n.params.level });
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gatewayUrl()}/mcp`), { requestInit: { headers: AUTH } }),
  );
});
afterAll(async () => {
  await client?.close();
});

type AuditEntry = { kind: string; tool: string; ts: number; status: string; requestId: string };
async function audit(query: string): Promise<AuditEntry[]> {
  const res = await fetch(`${gatewayUrl()}/v1/audit?${query}`, { headers: AUTH });
  return ((await res.json()) as { entries: AuditEntry[] }).entries;
}

describe("progress and live logs", () => {
  it("arrive during a multi-second execution, in order, at most 4 progress notifications a second, before the result", async () => {
    await client.setLoggingLevel("info");
    const progress: Array<{ at: number; progress: number; message?: string }> = [];
    const code = `for (let i = 0; i < 6; i++) {
  console.log("step " + i);
  console.debug("hidden " + i);
  await tools.demo.get_ticket({ id: "tkt_000001" });
  await new Promise((r) => setTimeout(r, 300));
}
console.warn("done");
return "ok";`;
    logs.length = 0;
    const res = await client.callTool({ name: "execute", arguments: { code } }, undefined, {
      onprogress: (p) => progress.push({ at: Date.now(), ...p }),
    });
    const answeredAt = Date.now();
    expect((res.structuredContent as ExecuteResult).result).toBe("ok");
    expect(logs.map((l) => l.data)).toEqual([...[0, 1, 2, 3, 4, 5].map((i) => `step ${i}`), "done"]);
    expect(logs.at(-1)?.level).toBe("warning");
    expect(logs.every((l) => l.at <= answeredAt)).toBe(true);
    // First log line ~1.8 s before the answer: they came while it ran, not with the result.
    expect(answeredAt - (logs[0]?.at ?? answeredAt)).toBeGreaterThan(1_000);
    expect(progress.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]?.progress).toBeGreaterThan(progress[i - 1]?.progress ?? 0);
    }
    expect(Math.floor(progress.at(-1)?.progress ?? 0)).toBeGreaterThanOrEqual(5);
    // message: the latest finished call or console line when the notification went out.
    for (const p of progress)
      expect(p.message ?? "").toMatch(/^(demo\.get_ticket finished|step \d|hidden \d|done)$/);
    const seconds = (progress.at(-1)!.at - progress[0]!.at) / 1000;
    expect(progress.length - 1).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 1);
  });
});

describe("live logs of code that calls no tool", () => {
  // The default engine (quickjs, unless E2E_ENGINE) and a team on the other one: the same lines.
  it.each([false, true])(
    "arrive while it runs, on the stack's engine and on a team's isolate engine (progress token: %s)",
    async (progress) => {
      const isolate = await teamWithKey("e2e-live-isolate", { engine: "isolate" });
      for (const headers of [AUTH, isolate]) {
        const lines: Array<{ at: number; data: unknown }> = [];
        const own = new Client({ name: "e2e-live-no-tool", version: "1.0.0" });
        own.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
          lines.push({ at: Date.now(), data: n.params.data });
        });
        await own.connect(
          new StreamableHTTPClientTransport(new URL(`${gatewayUrl()}/mcp`), { requestInit: { headers } }),
        );
        await own.setLoggingLevel("info");
        const code = `console.log("before");\nawait new Promise((r) => setTimeout(r, 1000));\nconsole.log("after");\nreturn "done";`;
        const res = await own.callTool(
          { name: "execute", arguments: { code } },
          undefined,
          progress ? { onprogress: () => {} } : {},
        );
        const answeredAt = Date.now();
        await own.close();
        expect((res.structuredContent as ExecuteResult).result).toBe("done");
        expect(lines.map((l) => l.data)).toEqual(["before", "after"]);
        expect(answeredAt - (lines[0]?.at ?? answeredAt)).toBeGreaterThan(300);
      }
    },
  );
});

describe("live logs from Python, and when answers stay JSON", () => {
  it("sends Python print() lines as notifications/message while the code runs", async () => {
    await client.setLoggingLevel("info");
    logs.length = 0;
    const out = await execute(client, {
      language: "python",
      code: `import asyncio
for i in range(3):
    print("py", i)
    await asyncio.sleep(0.2)
"ok"`,
    });
    expect(out.result).toBe("ok");
    expect(logs.map((l) => l.data)).toEqual(["py 0", "py 1", "py 2"]);
  });

  it("answers JSON when nothing can stream, SSE with a progress token", async () => {
    const init = await postMcp({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const session = init.headers.get("Mcp-Session-Id") ?? "";
    const call = (meta?: Record<string, unknown>) =>
      postMcp(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "execute", arguments: { code: "return 6 * 7" }, ...(meta ? { _meta: meta } : {}) },
        },
        { "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" },
      );
    const plain = await call();
    expect(plain.headers.get("Content-Type")).toContain("application/json");
    expect(
      ((await plain.json()) as { result: { structuredContent: ExecuteResult } }).result.structuredContent
        .result,
    ).toBe(42);
    const streamed = await call({ progressToken: "p1" });
    expect(streamed.headers.get("Content-Type")).toContain("text/event-stream");
    expect(await streamed.text()).toContain('"result":42');
  });
});

describe("cancellation", () => {
  it("notifications/cancelled stops an execution that loops over tool calls: calls and audit rows stop, the next execute runs at once", async () => {
    // Each call creates a ticket whose subject carries the marker: the upstream's own count of calls.
    // (Assigned, as the demo's tickets are: later tests comment on the newest ticket without an author.)
    const marker = `cancelmark${Date.now()}`;
    const code = `const { agents } = await tools.demo.list_agents({});
for (let i = 0; i < 190; i++) {
  await tools.demo.create_ticket({ customerId: "cus_00001", subject: "${marker} " + i, body: "loop", assignee: agents[0].name });
  await new Promise((r) => setTimeout(r, 50));
}
return "finished";`;
    const upstreamCount = async () =>
      (
        await execute(client, {
          code: `return (await tools.demo.search_tickets({ query: "${marker}", limit: 1 })).total;`,
        })
      ).result as number;
    const abort = new AbortController();
    const since = Date.now();
    const running = client
      .callTool({ name: "execute", arguments: { code, timeoutMs: 60_000 } }, undefined, {
        signal: abort.signal,
        timeout: 120_000,
      })
      .catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 1_500));
    const before = (await audit(`since=${since}&tool=demo.create_ticket&limit=1000`)).length;
    expect(before).toBeGreaterThan(5);
    const cancelledAt = Date.now();
    abort.abort("user pressed Esc");
    expect(String(await running)).toContain("user pressed Esc");

    await new Promise((r) => setTimeout(r, 1_000));
    const settled = await audit(`since=${since}&tool=demo.create_ticket&limit=1000`);
    const created = await upstreamCount();
    await new Promise((r) => setTimeout(r, 1_500));
    const later = await audit(`since=${since}&tool=demo.create_ticket&limit=1000`);
    expect(later.length).toBe(settled.length);
    expect(await upstreamCount()).toBe(created);
    expect(created).toBe(later.length);
    const lastCall = Math.max(...later.map((e) => e.ts));
    expect(lastCall - cancelledAt).toBeLessThan(500);

    const executions = await audit(`since=${since}&tool=execute&limit=10`);
    expect(executions.filter((e) => e.status === "cancelled")).toHaveLength(1);

    const started = Date.now();
    expect((await execute(client, { code: "return 1 + 1" })).result).toBe(2);
    expect(Date.now() - started).toBeLessThan(PROMPT_MS);
  });
});
