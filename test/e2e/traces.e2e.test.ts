import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { createTaskSessionFromClient } from "@modelcontextprotocol/ext-tasks/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { modernUpstream } from "../../scripts/lib/era-upstreams.mjs";
import { type ReceivedSpan, startOtlpReceiver } from "../../scripts/lib/otlp-receiver.mjs";
import { serveFetch } from "../../scripts/lib/serve-fetch.mjs";
import { taskDispatch } from "../helpers/task-dispatch";
import { execute, gatewayUrl, teamWithKey } from "./client";
import { newWire, recordingFetch } from "./eras";

// Traces (contract "Traces"): the stack sends spans to OTLP/HTTP JSON on `otlpPort` (global-setup),
// sampling only callers whose traceparent is sampled. This file starts the receiver there, and an
// upstream of its own that records the trace context it is sent.

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";
const traceparent = (trace = TRACE) => `00-${trace}-${CALLER_SPAN}-01`;
/** An argument value that must appear in no span. */
const SECRET = "zebra-quartz-4711";

const receiver = startOtlpReceiver({ port: inject("otlpPort") });
const probe = modernUpstream({ name: "probe" });
/** What the probe upstream was sent: each request's traceparent header and a tools/call's `_meta` one. */
const seen: Array<{ header: string | null; meta?: string }> = [];
let probeServer: Awaited<ReturnType<typeof serveFetch>>;
let team: Record<string, string>;
const clients: Client[] = [];

beforeAll(async () => {
  await receiver.listening;
  probeServer = await serveFetch(async (request) => {
    const body = (request.method === "POST" ? await request.clone().json() : undefined) as
      | { method?: string; params?: { _meta?: { traceparent?: string } } }
      | undefined;
    const meta = body?.method === "tools/call" ? body.params?._meta?.traceparent : undefined;
    seen.push({ header: request.headers.get("traceparent"), ...(meta ? { meta } : {}) });
    return probe.fetch(request);
  });
  team = await teamWithKey("e2e-traces", {
    servers: { demo: { service: "DEMO" }, probe: { url: `${probeServer.base}/mcp` } },
  });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await probeServer?.close();
  await receiver.close();
});

/** An MCP client that sends `traceparent` on every request and approves every question. */
async function tracedClient(trace = TRACE): Promise<Client> {
  const client = new Client(
    { name: "e2e-traces", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, () => ({
    action: "accept" as const,
    content: { approve: true, remember: "call" },
  }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gatewayUrl()}/mcp`), {
      requestInit: { headers: { ...team, traceparent: traceparent(trace) } },
    }),
  );
  clients.push(client);
  return client;
}

/** The spans of `trace` once `done` holds of them (they are sent after the response). */
async function spansOf(
  trace: string,
  done = (spans: ReceivedSpan[]) => spans.some((s) => s.name === "execute_tool execute"),
): Promise<ReceivedSpan[]> {
  for (let i = 0; i < 100; i++) {
    const spans = receiver.spans.filter((s) => s.traceId === trace);
    if (done(spans)) return spans;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the spans of trace ${trace} did not arrive`);
}

const CODE = `const { tickets } = await tools.demo.list_tickets({ status: "open", limit: 1 });
await tools.demo.update_ticket({ id: tickets[0].id, status: "pending" });
const loud = await tools.probe.shout({ text: "${SECRET}" });
return { id: tickets[0].id, loud: loud.length };`;

describe("an execute whose caller sent a traceparent", () => {
  let spans: ReceivedSpan[];
  const one = (name: string) => {
    const found = spans.filter((s) => s.name === name);
    expect(found, name).toHaveLength(1);
    return found[0] as ReceivedSpan;
  };

  beforeAll(async () => {
    const client = await tracedClient();
    const out = await execute(client, { code: CODE });
    expect(out.error).toBeUndefined();
    spans = await spansOf(TRACE);
  });

  it("is one trace under the caller's span: request, admission, execute, sandbox", () => {
    const request = spans.find((s) => s.kind === 2 && s.attributes["gen_ai.tool.name"] === "execute");
    expect(request).toMatchObject({
      name: "POST /mcp",
      parentSpanId: CALLER_SPAN,
      service: "code-mcp-gateway",
      attributes: {
        "mcp.method.name": "tools/call",
        "http.request.method": "POST",
        "http.response.status_code": 200,
      },
    });
    expect(request?.attributes["gateway.request_id"]).toMatch(/^[\w.:-]+$/);
    const execute = one("execute_tool execute");
    expect(execute.parentSpanId).toBe(request?.spanId);
    expect(spans.some((s) => s.name === "admission" && s.parentSpanId === request?.spanId)).toBe(true);
    expect(one("sandbox").parentSpanId).toBe(execute.spanId);
    expect(execute.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gateway.engine": inject("engine"),
      "gateway.language": "typescript",
      "gateway.team": "e2e-traces",
      "gateway.outcome": "ok",
      "gateway.tool_calls": 3,
    });
    for (const d of ["queue", "sandbox", "total"]) {
      expect(execute.attributes[`gateway.duration.${d}_ms`], d).toBeGreaterThanOrEqual(0);
    }
  });

  it("has a span per tool call under the execute, the approval under its call, each upstream request under it", () => {
    const execute = one("execute_tool execute");
    const calls = ["demo.list_tickets", "demo.update_ticket", "probe.shout"].map((t) =>
      one(`execute_tool ${t}`),
    );
    for (const call of calls) {
      expect(call.parentSpanId).toBe(execute.spanId);
      expect(call.attributes).toMatchObject({
        "gen_ai.operation.name": "execute_tool",
        "gateway.status": "ok",
      });
      expect(call.attributes["gateway.arguments.bytes"]).toBeGreaterThan(0);
      expect(call.attributes["gateway.result.bytes"]).toBeGreaterThan(0);
      expect(call.attributes["gateway.arguments.sha256"]).toMatch(/^[0-9a-f]{64}$/);
      const http = spans.filter((s) => s.parentSpanId === call.spanId && s.kind === 3);
      expect(http.length, call.name).toBeGreaterThan(0);
      expect(http[0]?.attributes["http.response.status_code"]).toBe(200);
    }
    expect(calls[1]?.attributes).toMatchObject({ "gateway.server": "demo", "gateway.tool": "update_ticket" });
    const approval = one("approval");
    expect(approval.parentSpanId).toBe(calls[1]?.spanId);
    expect(approval.endMs).toBeGreaterThanOrEqual(approval.startMs);
  });

  it("records no argument value", () => {
    expect(JSON.stringify(spans)).not.toContain(SECRET);
    expect(JSON.stringify(spans)).not.toContain("pending");
  });

  it("continues into the upstream: traceparent on each HTTP request, and in the tools/call's _meta", () => {
    const probeCall = one("execute_tool probe.shout");
    const headers = seen.map((s) => s.header);
    expect(headers.length).toBeGreaterThan(0);
    for (const header of headers) expect(header).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    const clientSpans = new Set(
      spans.filter((s) => s.parentSpanId === probeCall.spanId).map((s) => s.spanId),
    );
    expect(headers.some((h) => clientSpans.has(h?.split("-")[2] ?? ""))).toBe(true);
    expect(seen.find((s) => s.meta)?.meta).toBe(`00-${TRACE}-${probeCall.spanId}-01`);
  });
});

describe("a 2026-07-28 execute asked for approval by round trip (a detached run)", () => {
  it("runs under the first request's span, and the retry's span links to the run", async () => {
    const trace = `5ca1ab1e${"0".repeat(24)}`;
    const client = new ModernClient(
      { name: "e2e-traces-2026", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler("elicitation/create", async () => ({
      action: "accept",
      content: { approve: true },
    }));
    await client.connect(
      new ModernTransport(new URL(`${gatewayUrl()}/mcp`), {
        fetch: recordingFetch(newWire(), { ...team, traceparent: traceparent(trace) }),
      }),
    );
    try {
      const res = await client.callTool({ name: "execute", arguments: { code: CODE } });
      expect((res.structuredContent as { error?: unknown }).error).toBeUndefined();
    } finally {
      await client.close();
    }
    const spans = await spansOf(trace, (got) => {
      const run = got.find((s) => s.name === "run");
      return run !== undefined && got.some((s) => s.links.some((l) => l.spanId === run.spanId));
    });
    const run = spans.find((s) => s.name === "run") as ReceivedSpan;
    const first = spans.find((s) => s.spanId === run.parentSpanId);
    expect(first).toMatchObject({
      kind: 2,
      parentSpanId: CALLER_SPAN,
      attributes: { "gen_ai.tool.name": "execute" },
    });
    expect(spans.find((s) => s.name === "execute_tool execute")?.parentSpanId).toBe(run.spanId);
    const retry = spans.filter((s) => s.links.some((l) => l.spanId === run.spanId));
    expect(retry).toHaveLength(1);
    expect(retry[0]).toMatchObject({ kind: 2, parentSpanId: CALLER_SPAN });
    expect(retry[0]?.spanId).not.toBe(first?.spanId);
  });
});

describe("a task (2026-07-28, tasks extension)", () => {
  it("runs as a span of its own, and each tasks/get's span links to it", async () => {
    const trace = `7a5c${"0".repeat(28)}`;
    const url = new URL(`${gatewayUrl()}/mcp`);
    const fetchTraced = recordingFetch(newWire(), { ...team, traceparent: traceparent(trace) });
    const clientInfo = { name: "e2e-traces-tasks", version: "1.0.0" };
    const client = new ModernClient(clientInfo, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new ModernTransport(url, { fetch: fetchTraced }));
    const session = createTaskSessionFromClient(client, {
      endpointId: `e2e-traces-${Date.now()}`,
      rawDispatch: taskDispatch(fetchTraced, url),
      v2RequestFraming: { protocolVersion: "2026-07-28", clientInfo, clientCapabilities: {} },
    });
    try {
      const code = `await tools.demo.list_tickets({ limit: 1 }); await new Promise((r) => setTimeout(r, 2500)); return "late";`;
      const execution = await session.callTool("execute", { code });
      expect(execution.kind).toBe("task");
      expect((await execution.settle()).outcome.status).toBe("completed");
    } finally {
      await session.close();
      await client.close();
    }
    const linksRun = (s: ReceivedSpan, run: ReceivedSpan) => s.links.some((l) => l.spanId === run.spanId);
    const spans = await spansOf(trace, (got) => {
      const run = got.find((s) => s.name === "run");
      return (
        run !== undefined &&
        got.some((s) => s.attributes["mcp.method.name"] === "tasks/get" && linksRun(s, run))
      );
    });
    const run = spans.find((s) => s.name === "run") as ReceivedSpan;
    const polls = spans.filter((s) => s.attributes["mcp.method.name"] === "tasks/get");
    expect(polls.length).toBeGreaterThan(0);
    for (const poll of polls) {
      expect(poll).toMatchObject({ kind: 2, parentSpanId: CALLER_SPAN });
      expect(linksRun(poll, run)).toBe(true);
    }
  });
});

describe("a collector that fails", () => {
  /** Median client latency of `n` traced executes (each its own trace), all answered correctly. */
  async function medianMs(n: number, label: string): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const trace = `${label.padEnd(8, "0")}${String(i).padStart(24, "0")}`;
      const client = await tracedClient(trace);
      const started = performance.now();
      const out = await execute(client, {
        code: "const { tickets } = await tools.demo.list_tickets({ limit: 1 }); return tickets.length;",
      });
      times.push(performance.now() - started);
      expect(out.error).toBeUndefined();
      expect(out.result).toBe(1);
    }
    return times.sort((a, b) => a - b)[Math.floor(n / 2)] as number;
  }

  it("that answers 500 or never answers changes nothing for the client", async () => {
    receiver.setMode("ok");
    const ok = await medianMs(5, "0c");
    receiver.setMode("fail");
    const failing = await medianMs(5, "fa");
    receiver.setMode("hang");
    const hanging = await medianMs(5, "ba");
    receiver.setMode("ok");
    const okAgain = await medianMs(5, "0d");
    const baseline = Math.max(ok, okAgain);
    console.log(
      `traced execute, median ms: collector ok ${ok.toFixed(0)}/${okAgain.toFixed(0)}, 500 ${failing.toFixed(0)}, hanging ${hanging.toFixed(0)}`,
    );
    expect(failing).toBeLessThan(baseline * 1.5 + 50);
    expect(hanging).toBeLessThan(baseline * 1.5 + 50);
  });
});
