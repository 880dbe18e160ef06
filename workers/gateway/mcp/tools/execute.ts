import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { executeInputShape, executeOutputShape } from "../../../../shared/contract/execute";
import { planExecution } from "../../context/execution-plan";
import type { RequestContext } from "../../request/context";
import { executeToolAnswer } from "../execute-answer";
import { mcpChannel, type RequestLink } from "../execute-channel";
import { asksByRoundTrip, executeDetached, type RoundState, resumeRoundTrip } from "../round-trip";
import { clientDeclaresTasks, requestDeclaresTasks } from "../tasks";

const DESCRIPTION = `Run TypeScript (default) or JavaScript in a fresh sandbox; returns { result, logs, error?, stats }.
\`code\` is an async function body: await works; \`return\` or a last expression is the result. Process data in code and return only what matters.
In code:
- tools.<server>.<tool>(args) or callTool("server.tool", args) calls an upstream MCP tool; resolves to its structured result (or parsed text); throws on error.
- searchTools(query, { server?, detail?, limit? }) finds tools with TypeScript signatures; getToolDefinition("server.tool") gives the full declaration.
- state.get/set/delete/keys (JSON) and workspace.write/read/readBytes/list/delete (files) persist in the session; session.info(), session.history().
- skills.save({ name, description, code, inputSchema?, outputSchema? }) keeps TypeScript code (a function body of \`args\`) for the team; skills.<name>(args) runs it; search_tools finds skills.
- A tool whose search_tools entry has \`approval\` waits for a person; denied: it throws ApprovalDeniedError (catch it; do not retry).
- Promise.all runs calls in parallel. console.* goes to logs. No fetch, eval or imports.
language "python": the last expression is the result, print() goes to logs; await tools.<server>.<tool>(**kwargs), call_tool, search_tools, state, workspace, skills.`;

/**
 * The execute tool: on 2026-07-28, detached when the client may be asked a question by round trip or
 * declared tasks (mcp/round-trip.ts); else planned (context/execution-plan.ts: in a request that is
 * one execution, with the lease admission took for it) and run in this request.
 */
export function registerExecuteTool(server: McpServer, ctx: RequestContext, link: RequestLink): void {
  server.registerTool(
    "execute",
    {
      title: "Execute code",
      description: DESCRIPTION,
      inputSchema: z.object(executeInputShape),
      ...(requestDeclaresTasks(ctx) ? {} : { outputSchema: z.object(executeOutputShape) }),
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    async (input, extra) => {
      if (ctx.mcpEra === "modern") {
        const state = extra.mcpReq.requestState<RoundState>();
        if (state !== undefined) return resumeRoundTrip(ctx, extra, state);
        const asTask = clientDeclaresTasks(extra.mcpReq.envelope);
        if (asTask || asksByRoundTrip(ctx, extra)) return executeDetached(ctx, input, extra, asTask);
      }
      const plan = planExecution(ctx, input, (timeoutMs) => mcpChannel(ctx, link, extra, timeoutMs));
      return executeToolAnswer(ctx, plan);
    },
  );
}
