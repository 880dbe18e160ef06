import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import {
  type ExecuteInput,
  type ExecuteResult,
  executeInputShape,
  executeOutputShape,
  failedExecution,
} from "../../../../shared/contract/execute";
import type { RequestContext } from "../../context/request-context";
import { GatewayError } from "../../errors";
import { executionTimeoutMs } from "../../execution/limits";
import { type ExecutionChannel, execute } from "../../operations/execute";
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

/** The MCP result for an execution: structured, the same as JSON text, isError when it failed. */
export function toToolResult(result: ExecuteResult) {
  return {
    content: [{ type: "text" as const, text: JSON.stringify(result) }],
    structuredContent: result,
    isError: result.error !== undefined,
  };
}

/**
 * The `execute` tool's answer, whichever way the call arrived (the SDK server, or the route's own
 * path for a lone execution, with the lease admission `granted` it): an unknown sessionId is a
 * SessionNotFoundError result; any other failure is a tool error carrying its message, as the SDK
 * makes it.
 */
export async function executeToolAnswer(
  ctx: RequestContext,
  input: ExecuteInput,
  granted?: string | null,
  channel?: ExecutionChannel,
) {
  try {
    return toToolResult(await execute(ctx, input, granted, channel));
  } catch (err) {
    if (!(err instanceof GatewayError && err.code === "session_not_found")) {
      return {
        content: [{ type: "text" as const, text: err instanceof Error ? err.message : String(err) }],
        isError: true,
      };
    }
    return toToolResult(
      failedExecution({
        name: "SessionNotFoundError",
        message: `sessionId ${JSON.stringify(input.sessionId)}: ${err.message}`,
      }),
    );
  }
}

/**
 * The execute tool. In a request that is one execution, admission took its lease; the handler uses
 * it (the request holds no other execute).
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
      const { channel, close } = mcpChannel(ctx, link, extra, executionTimeoutMs(input, ctx.config.limits));
      try {
        return await executeToolAnswer(ctx, input, ctx.loneExecution?.lease, channel);
      } finally {
        close();
      }
    },
  );
}
