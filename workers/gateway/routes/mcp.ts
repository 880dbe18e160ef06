import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { readJson } from "../http/body";
import { HttpError } from "../http/errors";
import { scopeOf } from "../http/scope";
import { createMcpServer } from "../mcp/server";
import { closeSession, newSessionId, openSession, requireSession } from "../mcp/sessions";

interface InitializeParams {
  protocolVersion?: unknown;
  clientInfo?: { name?: unknown; version?: unknown };
}

/** The initialize request in a POST body, if that is what it carries. */
function findInitialize(body: unknown): InitializeParams | undefined {
  const messages = Array.isArray(body) ? body : [body];
  for (const m of messages) {
    if (m && typeof m === "object" && (m as { method?: unknown }).method === "initialize") {
      return ((m as { params?: InitializeParams }).params ?? {}) as InitializeParams;
    }
  }
  return undefined;
}

/**
 * Streamable HTTP (MCP 2025-11-25). Each request gets a new server and a stateless transport;
 * the session is ours: issued on initialize, kept in a Durable Object, checked on every request.
 */
export const mcpRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const scope = await scopeOf(c);
    const body = await readJson(c);
    const init = findInitialize(body);
    if (!init) await requireSession(c.env, c.req.header("Mcp-Session-Id"), c.get("team"));

    const server = createMcpServer(scope);
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(transport);
    try {
      const res = await transport.handleRequest(c.req.raw, { parsedBody: body });
      if (!init || !res.ok) return res;
      const negotiated = await negotiatedVersion(res);
      if (negotiated === undefined) return res;
      const id = newSessionId();
      const now = Date.now();
      const name = init.clientInfo?.name;
      const version = init.clientInfo?.version;
      await openSession(c.env, {
        id,
        createdAt: now,
        lastSeenAt: now,
        ttlSeconds: scope.config.sessionTtlSeconds,
        protocolVersion: negotiated,
        team: c.get("team"),
        ...(typeof name === "string" && typeof version === "string" ? { client: { name, version } } : {}),
      });
      const out = new Response(res.body, res);
      out.headers.set("Mcp-Session-Id", id);
      return out;
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
