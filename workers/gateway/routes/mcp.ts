import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { SessionRecord } from "../../../durable-objects/session/record";
import type { AppEnv } from "../env";
import { readJson } from "../http/body";
import { HttpError, invalidRequest } from "../http/errors";
import { scopeOf } from "../http/scope";
import { directExecute } from "../mcp/direct-call";
import { createMcpServer } from "../mcp/server";
import { closeSession, requireBatchAllowed, requireSession } from "../mcp/sessions";
import { executeToolAnswer } from "../mcp/tools/execute";
import type { RequestScope } from "../operations";
import { createSession } from "../sessions/store";
import { timed } from "../timing/clock";

// Only what the gateway decides on; the SDK's transport validates the messages in full.
const RequestId = z.union([z.string(), z.number()]);
const Initialize = z.object({ method: z.literal("initialize") });
const RpcRequest = z.object({ method: z.string(), id: RequestId });
const Cancellation = z.object({
  method: z.literal("notifications/cancelled"),
  params: z.object({ requestId: RequestId }),
});
const WithClientInfo = z.object({
  params: z.object({ clientInfo: z.object({ name: z.string(), version: z.string() }) }),
});

const isInitialize = (message: unknown) => Initialize.safeParse(message).success;

function requestIds(batch: unknown[]): Array<string | number> {
  return batch.flatMap((m) => {
    const request = RpcRequest.safeParse(m);
    return request.success ? [request.data.id] : [];
  });
}

/** Batch faults whatever the session: empty, initialize inside (MCP forbids it), a request id twice. */
function requireValidBatch(batch: unknown[]): void {
  if (batch.length === 0) {
    throw invalidRequest("empty_batch", "Invalid Request: the JSON-RPC batch is empty");
  }
  if (batch.some(isInitialize)) {
    throw invalidRequest(
      "initialize_in_batch",
      "Invalid Request: initialize must be sent alone, never in a JSON-RPC batch",
    );
  }
  const seen = new Set<string | number>();
  for (const id of requestIds(batch)) {
    if (seen.has(id)) {
      throw invalidRequest(
        "duplicate_request_id",
        `Invalid Request: request id ${JSON.stringify(id)} appears more than once in the batch`,
      );
    }
    seen.add(id);
  }
}

/**
 * Drops cancellations of requests in the same batch. The SDK never answers a cancelled request,
 * so the JSON response would wait for it forever; the request runs to completion instead.
 */
function withoutSelfCancellations(batch: unknown[]): unknown[] {
  const ids = new Set(requestIds(batch));
  return batch.filter((m) => {
    const cancel = Cancellation.safeParse(m);
    return !(cancel.success && ids.has(cancel.data.params.requestId));
  });
}

/** A session for the client that initialize answered, its id in the response's Mcp-Session-Id. */
async function withNewSession(
  c: Context<AppEnv>,
  scope: RequestScope,
  init: unknown,
  res: Response,
): Promise<Response> {
  const negotiated = await negotiatedVersion(res);
  if (negotiated === undefined) return res;
  const info = WithClientInfo.safeParse(init);
  const session = await createSession(c.env, {
    kind: "mcp",
    ttlSeconds: scope.config.sessionTtlSeconds,
    protocolVersion: negotiated,
    team: c.get("team"),
    ...(info.success ? { client: info.data.params.clientInfo } : {}),
  });
  const out = new Response(res.body, res);
  out.headers.set("Mcp-Session-Id", session.id);
  return out;
}

/**
 * Streamable HTTP (MCP 2025-11-25). Each request gets a new server and a stateless transport, except
 * a lone well-formed `execute` call, which is answered directly with the same tool handler
 * (mcp/direct-call.ts); the session is ours: issued on initialize, kept in a Durable Object, checked
 * on every request.
 * Only a lone initialize goes without a session; batches follow the session's protocol version.
 */
export const mcpRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const body = await (c.get("mcpBody") ?? readJson(c));
    const batch = Array.isArray(body) ? body : undefined;
    if (batch) requireValidBatch(batch);
    const init = !batch && isInitialize(body);
    const clock = c.get("clock");
    let session: SessionRecord | undefined;
    if (!init) {
      session = await timed(clock, "session", () =>
        requireSession(c.env, c.req.header("Mcp-Session-Id"), c.get("team")),
      );
      if (batch) requireBatchAllowed(session, c.req.header("MCP-Protocol-Version"), batch.length);
    }
    const scope = await timed(clock, "scope", () => scopeOf(c, session?.id));
    const direct = init || batch ? undefined : directExecute(body, c.req.raw.headers);
    if (direct) {
      const result = await executeToolAnswer(scope, direct.params.arguments);
      return c.json({ result, jsonrpc: "2.0", id: direct.id });
    }

    const { server, transport } = await timed(clock, "mcp_setup", async () => {
      const server = createMcpServer(scope);
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
      await server.connect(transport);
      return { server, transport };
    });
    try {
      const parsedBody = batch ? withoutSelfCancellations(batch) : body;
      const res = await timed(
        clock,
        "mcp_handle",
        () => transport.handleRequest(c.req.raw, { parsedBody }),
        false,
      );
      return init && res.ok ? await withNewSession(c, scope, body, res) : res;
    } finally {
      c.executionCtx.waitUntil(server.close());
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
    await closeSession(c.env, c.req.header("Mcp-Session-Id"), c.get("team"));
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
