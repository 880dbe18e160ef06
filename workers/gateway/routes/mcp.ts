import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { z } from "zod";
import type { RequestContext } from "../context/request-context";
import type { AppEnv } from "../env";
import { HttpError } from "../http/errors";
import { isInitialize, withoutSelfCancellations } from "../mcp/messages";
import { createMcpServer } from "../mcp/server";
import { closeSession } from "../mcp/sessions";
import { executeToolAnswer } from "../mcp/tools/execute";
import { createSession } from "../sessions/store";
import { timed } from "../timing/clock";

const WithClientInfo = z.object({
  params: z.object({ clientInfo: z.object({ name: z.string(), version: z.string() }) }),
});

/** A session for the client that initialize answered, its id in the response's Mcp-Session-Id. */
async function withNewSession(ctx: RequestContext, init: unknown, res: Response): Promise<Response> {
  const negotiated = await negotiatedVersion(res);
  if (negotiated === undefined) return res;
  const info = WithClientInfo.safeParse(init);
  const session = await createSession(ctx.env, {
    kind: "mcp",
    ttlSeconds: ctx.config.sessionTtlSeconds,
    protocolVersion: negotiated,
    team: ctx.team,
    ...(info.success ? { client: info.data.params.clientInfo } : {}),
  });
  const out = new Response(res.body, res);
  out.headers.set("Mcp-Session-Id", session.id);
  return out;
}

/**
 * Streamable HTTP (MCP 2025-11-25). The request context has read the body and checked the MCP
 * session it names (context/middleware.ts). A lone execution is answered here with the execute
 * tool's handler and the lease admission took for it; anything else gets a new server and a
 * stateless transport. The session is ours: issued on initialize, kept in a Durable Object.
 */
export const mcpRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const ctx = c.get("context");
    if (!ctx.body?.ok) throw ctx.body?.error ?? new Error("the /mcp body was not read");
    const body = ctx.body.value;
    const call = ctx.loneExecution;
    if (call) {
      const result = await executeToolAnswer(ctx, call.input, call.lease);
      return c.json({ result, jsonrpc: "2.0", id: call.rpcId ?? null });
    }
    const batch = Array.isArray(body) ? body : undefined;
    const init = !batch && isInitialize(body);
    const { server, transport } = await timed(ctx.clock, "mcp_setup", async () => {
      const server = createMcpServer(ctx);
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
      await server.connect(transport);
      return { server, transport };
    });
    try {
      const parsedBody = batch ? withoutSelfCancellations(batch) : body;
      const res = await timed(
        ctx.clock,
        "mcp_handle",
        () => transport.handleRequest(c.req.raw, { parsedBody }),
        false,
      );
      return init && res.ok ? await withNewSession(ctx, body, res) : res;
    } finally {
      ctx.waitUntil(server.close());
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
