import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { VERSION } from "../version";
import { registerExecuteTool, type ToolDeps } from "./tools/execute";

/** A fresh server per request (the SDK's stateless transport must not be reused). */
export function createMcpServer(deps: ToolDeps): McpServer {
  const server = new McpServer(
    { name: "code-mcp-gateway", version: VERSION },
    {
      capabilities: { tools: {} },
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      instructions:
        "Run TypeScript in a fresh sandbox with `execute`: process data there and return only what you need.",
    },
  );
  registerExecuteTool(server, deps);
  return server;
}
