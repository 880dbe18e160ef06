import { createMcpHandler, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { Hono } from "hono";
import { planExecution } from "../context/execution-plan";
import { cancellation } from "../execution/cancellation";
import type { AppEnv } from "../http/app-env";
import { HttpError } from "../http/errors";
import { answerApprovals } from "../mcp/approval-questions";
import type { RequestLink } from "../mcp/execute-channel";
import { cancelRequests, isInitialize, withoutSelfCancellations } from "../mcp/messages";
import { createMcpServer } from "../mcp/server";
import { closeSession } from "../mcp/sessions";
import { needsStream } from "../mcp/streaming";
import { executeToolAnswer } from "../mcp/tools/execute";
import type { RequestContext } from "../request/context";
import { createSession } from "../sessions/store";
import { timed } from "../timing/clock";

/** A session for the client that initialize answered, its id in the response's Mcp-Session-Id. */
async function withNewSession(ctx: RequestContext, res: Response): Promise<Response> {
  const negotiated = await negotiatedVersion(res);
  if (negotiated === undefined) return res;
  const params = ctx.messages?.initialize;
  const elicitation = params?.elicitation;
  const session = await createSession(ctx.env, {
    kind: "mcp",
    ttlSeconds: ctx.config.sessionTtlSeconds,
    protocolVersion: negotiated,
    team: ctx.team,
    ...(params?.clientInfo ? { client: params.clientInfo } : {}),
    ...(elicitation
      ? {
          // `elicitation: {}` (no mode named) means form mode (specification 2025-11-25, "Elicitation").
          elicitation: {
            form: elicitation.form !== undefined || elicitation.url === undefined,
            url: elicitation.url !== undefined,
          },
        }
      : {}),
  });
  const out = new Response(res.body, res);
  out.headers.set("Mcp-Session-Id", session.id);
  return out;
}

/**
 * MCP 2026-07-28 (stateless: `server/discover`, no initialize, no Mcp-Session-Id): the SDK's handler,
 * made for this request around its context, answering JSON unless an execution talks to its client
 * while it runs (then SSE). 2025-era requests never reach it.
 */
function serveModern(request: Request, ctx: RequestContext, parsedBody: unknown): Promise<Response> {
  const link: RequestLink = {
    requestSignal: request.signal,
    send: () => Promise.reject(new Error("MCP 2026-07-28 has no server-to-client requests")),
  };
  const handler = createMcpHandler(() => createMcpServer(ctx, link), {
    legacy: "reject",
    responseMode: "auto",
    keepAliveMs: 0,
  });
  return handler.fetch(request, { parsedBody });
}

/**
 * Streamable HTTP: MCP 2026-07-28 through the SDK's handler (above); 2025-11-25 and older here. The
 * request context has read the body and checked the MCP session it names (context/middleware.ts).
 * A lone execution that will send nothing before its result is answered here with the execute
 * tool's answer, planned with the lease admission took for it.
 * Messages for executions running in other requests (answers to approval questions, cancellations)
 * go to where those listen. Anything else gets a new server and a stateless transport, answering
 * JSON, or SSE when an execution may talk to its client while it runs (mcp/streaming.ts). The
 * session is ours: issued on initialize, kept in a Durable Object.
 */
export const mcpRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const ctx = c.get("context");
    if (!ctx.body?.ok) throw ctx.body?.error ?? new Error("the /mcp body was not read");
    const body = ctx.body.value;
    if (ctx.mcpEra === "modern") return serveModern(c.req.raw, ctx, body);
    const call = ctx.loneExecution;
    const stream = needsStream(ctx);
    if (call && !stream) {
      const plan = planExecution(ctx, call.input, (timeoutMs) => {
        const cancel = cancellation(ctx, { requestSignal: c.req.raw.signal, rpcId: call.rpcId, timeoutMs });
        return { signal: cancel.signal, close: cancel.stop };
      });
      const result = await executeToolAnswer(ctx, plan);
      return c.json({ result, jsonrpc: "2.0", id: call.rpcId ?? null });
    }
    const batch = Array.isArray(body) ? body : undefined;
    const init = !batch && isInitialize(body);
    const forServer = init
      ? [body]
      : await cancelRequests(
          ctx,
          await answerApprovals(ctx, batch ? withoutSelfCancellations(batch) : [body]),
        );
    if (forServer.length === 0) return c.body(null, 202);
    const { server, transport } = await timed(ctx.clock, "mcp_setup", async () => {
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: !stream });
      const server = createMcpServer(ctx, {
        send: (message, relatedRequestId) => transport.send(message, { relatedRequestId }),
        requestSignal: c.req.raw.signal,
      });
      await server.connect(transport);
      return { server, transport };
    });
    try {
      const parsedBody = batch ? forServer : forServer[0];
      const res = await timed(
        ctx.clock,
        "mcp_handle",
        () => transport.handleRequest(c.req.raw, { parsedBody }),
        false,
      );
      return init && res.ok ? await withNewSession(ctx, res) : res;
    } finally {
      // A streamed answer is still being written: its transport ends the stream when the last
      // response is out, and the server goes with the request.
      if (!stream) ctx.waitUntil(server.close());
    }
  })
  .get("/", () => {
    throw new HttpError(
      405,
      "method_not_allowed",
      "This server does not offer a server-to-client stream; use POST",
      {
        Allow: "POST, DELETE",
      },
    );
  })
  .delete("/", async (c) => {
    const ctx = c.get("context");
    await closeSession(ctx.env, c.req.header("Mcp-Session-Id"), ctx.team);
    return c.body(null, 204);
  });

/** The version an initialize result agreed on; undefined when initialize failed (no session then). */
async function negotiatedVersion(res: Response): Promise<string | undefined> {
  try {
    const body = (await res.clone().json()) as { result?: { protocolVersion?: unknown } };
    const version = body.result?.protocolVersion;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}
