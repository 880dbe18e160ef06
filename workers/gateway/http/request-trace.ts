import type { Context, MiddlewareHandler } from "hono";
import { loadConfig } from "../config";
import type { MessageFacts } from "../request/messages";
import { metaTraceparent, parseTraceparent } from "../tracing/context";
import { exportTrace } from "../tracing/export";
import { SpanKind, Trace } from "../tracing/trace";
import type { AppEnv } from "./app-env";

/** The longest a request's trace waits for its spans to end (an execution's longest timeout, and more). */
const SETTLE_MAX_MS = 16 * 60_000;

/**
 * The request's trace, when traces are exported (OTEL_EXPORTER_OTLP_ENDPOINT): its server span,
 * under the caller's `traceparent` when it sent one, sent to the collector after the response.
 * Without an endpoint nothing is made; a caller's trace id is still kept for the request's log line
 * and error body.
 */
export const requestTrace: MiddlewareHandler<AppEnv> = async (c, next) => {
  const loaded = loadConfig(c.env);
  const config = loaded.ok ? loaded.config.tracing : undefined;
  const incoming = parseTraceparent(c.req.header("traceparent"), c.req.header("tracestate"));
  // A liveness probe (every 2 s under `npm run dev`'s watchdog) is no trace worth keeping.
  if (!config?.endpoint || c.req.path === "/live") {
    if (incoming) c.set("traceId", incoming.traceId);
    return next();
  }
  const url = new URL(c.req.url);
  const route = c.req.path.split("/").slice(0, 3).join("/") || "/";
  const trace = new Trace(config, incoming, `${c.req.method} ${route}`, SpanKind.SERVER, {
    "http.request.method": c.req.method,
    "url.path": c.req.path,
    "url.scheme": url.protocol.slice(0, -1),
    "server.address": url.hostname,
    "user_agent.original": c.req.header("User-Agent"),
    "gateway.request_id": c.get("requestId"),
  });
  c.set("trace", trace);
  try {
    await next();
  } finally {
    const status = c.res.status;
    trace.root.set({ "http.response.status_code": status });
    if (status >= 500) trace.root.fail(String(status));
    let waitUntil: (promise: Promise<unknown>) => void;
    try {
      const ctx = c.executionCtx;
      waitUntil = (promise) => ctx.waitUntil(promise);
    } catch {
      waitUntil = () => {}; // no execution context (a test calling the app directly): nothing is sent
    }
    // A streamed answer (SSE) goes on after this: the trace is sent once its spans have ended.
    waitUntil(trace.settled(SETTLE_MAX_MS).then(() => exportTrace(trace, waitUntil)));
  }
};

/** The request's trace id: its trace's, else the caller's `traceparent`'s; undefined when neither. */
export function traceIdOf(c: Context<AppEnv>): string | undefined {
  return c.get("trace")?.traceId ?? c.get("traceId");
}

/**
 * What the MCP body adds to the request's trace: the caller's context from `_meta` when the HTTP
 * request carried none, and the MCP attributes of a lone message (semantic conventions for MCP).
 */
export function traceMcpMessage(c: Context<AppEnv>, facts: MessageFacts | undefined, body: unknown): void {
  const meta = metaTraceparent(facts?.meta);
  const trace = c.get("trace");
  if (!trace) {
    if (meta && !c.get("traceId")) c.set("traceId", meta.traceId);
    return;
  }
  if (meta) trace.adopt(meta);
  if (!trace.recording || typeof body !== "object" || body === null || Array.isArray(body)) return;
  const { method, id, params } = body as { method?: unknown; id?: unknown; params?: { name?: unknown } };
  if (typeof method !== "string") return;
  const tool = method === "tools/call" && typeof params?.name === "string" ? params.name : undefined;
  trace.root.set({
    "mcp.method.name": method.slice(0, 64),
    "mcp.session.id": c.req.header("Mcp-Session-Id"),
    "mcp.protocol.version": c.req.header("MCP-Protocol-Version"),
    "jsonrpc.request.id": typeof id === "string" || typeof id === "number" ? String(id) : undefined,
    ...(tool ? { "gen_ai.tool.name": tool.slice(0, 64), "gen_ai.operation.name": "execute_tool" } : {}),
  });
}
