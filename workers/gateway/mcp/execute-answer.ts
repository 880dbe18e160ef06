import type { ExecuteResult } from "../../../shared/contract/execute";
import { executeToResult } from "../operations/execute";
import type { ExecutionPlan } from "../operations/plan";
import type { RequestContext } from "../request/context";

/** The MCP result for an execution: structured, the same as JSON text, isError when it failed. */
export function toToolResult(result: ExecuteResult) {
  return {
    content: [{ type: "text" as const, text: JSON.stringify(result) }],
    structuredContent: result,
    isError: result.error !== undefined,
  };
}

/**
 * The `execute` tool's answer when it runs in this request (the SDK server's tool, or the route's
 * own path for a lone execution): an unknown sessionId is a SessionNotFoundError result; any other
 * failure is a tool error carrying its message, as the SDK makes it. A detached run's answer is its stored result, shaped where it is read (round-trip.ts,
 * tasks.ts).
 */
export async function executeToolAnswer(ctx: RequestContext, plan: ExecutionPlan) {
  try {
    return toToolResult(await executeToResult(ctx, plan));
  } catch (err) {
    return {
      content: [{ type: "text" as const, text: err instanceof Error ? err.message : String(err) }],
      isError: true,
    };
  }
}
