import type { McpServer } from "@modelcontextprotocol/server";
import type { RequestContext } from "../request/context";
import { forgetSession } from "../sessions/live";
import { sessionStub } from "../sessions/store";

/**
 * logging/setLevel: the level is kept in the MCP session's record, since each request has its own
 * server; from the next request on, an execute streams console lines at or above it. (Another
 * isolate may take up to SESSION_CHECK_MS to see it.) Without a session there is nowhere to keep it.
 */
export function registerLogLevel(server: McpServer, ctx: RequestContext): void {
  server.server.setRequestHandler("logging/setLevel", async (request) => {
    const session = ctx.mcpSession;
    if (session) {
      await sessionStub(ctx.env, session.id).setLogLevel(ctx.team, request.params.level);
      forgetSession(session.id);
    }
    return {};
  });
}
