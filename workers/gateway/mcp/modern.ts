import { createMcpHandler, type McpRequestContext } from "@modelcontextprotocol/server";
import type { RequestContext } from "../request/context";
import type { RequestLink } from "./execute-channel";
import { createMcpServer } from "./server";

/** What a request served on the 2026-07-28 path hands the server factory: found by the request itself. */
interface Served {
  ctx: RequestContext;
  link: RequestLink;
}

const serving = new WeakMap<Request, Served>();

function factory(request: McpRequestContext) {
  const served = request.requestInfo && serving.get(request.requestInfo);
  if (!served) throw new Error("an MCP 2026-07-28 request reached the server without its request context");
  return createMcpServer(served.ctx, served.link);
}

/**
 * MCP 2026-07-28 (stateless: `server/discover`, no initialize, no Mcp-Session-Id): the SDK's handler,
 * one per isolate, answering JSON unless an execution talks to its client while it runs (then SSE).
 * 2025-era requests never reach it (routes/mcp.ts serves them on its own transport and sessions).
 */
const handler = createMcpHandler(factory, { legacy: "reject", responseMode: "auto", keepAliveMs: 0 });

export function serveModern(
  request: Request,
  ctx: RequestContext,
  link: Omit<RequestLink, "send">,
  parsedBody: unknown,
): Promise<Response> {
  serving.set(request, {
    ctx,
    link: {
      ...link,
      send: () => Promise.reject(new Error("MCP 2026-07-28 has no server-to-client requests")),
    },
  });
  return handler.fetch(request, { parsedBody });
}
