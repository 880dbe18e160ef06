import type { ExecuteResult } from "../../../shared/contract/execute";

/** The MCP result for an execution: structured, the same as JSON text, isError when it failed. */
export function toToolResult(result: ExecuteResult) {
  return {
    content: [{ type: "text" as const, text: JSON.stringify(result) }],
    structuredContent: result,
    isError: result.error !== undefined,
  };
}
