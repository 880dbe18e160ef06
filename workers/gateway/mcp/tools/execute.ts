import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type ExecuteResult,
  executeInputShape,
  executeResultShape,
} from "../../../../shared/contract/execute";
import { executeCode } from "../../../sandbox/executor";
import type { Config } from "../../config";
import type { GatewayEnv } from "../../env";

export interface ToolDeps {
  env: GatewayEnv;
  config: Config;
}

const DESCRIPTION = `Run TypeScript (default) or JavaScript in a fresh, isolated sandbox and get back the returned value.
\`code\` is the body of an async function: use top-level await and \`return\` the result (a whole \`async () => {…}\` also works).
Return only what you need: filter, aggregate and summarise inside the code. console.log/info/warn/error/debug go to \`logs\`.
No network (fetch fails), no eval, no imports; loops and calls stop at the time limit.
Result: { result, logs, error?: { name, message, line }, stats }.`;

/** The MCP result for an execution: structured, the same as JSON text, isError when it failed. */
export function toToolResult(result: ExecuteResult) {
  return {
    content: [{ type: "text" as const, text: JSON.stringify(result) }],
    structuredContent: result,
    isError: result.error !== undefined,
  };
}

export function registerExecuteTool(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    "execute",
    {
      title: "Execute code",
      description: DESCRIPTION,
      inputSchema: executeInputShape,
      outputSchema: executeResultShape,
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    async (input) =>
      toToolResult(await executeCode({ loader: deps.env.LOADER, limits: deps.config.limits }, input)),
  );
}
