import { McpServer } from "@modelcontextprotocol/server";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/server/validators/cf-worker";
import type { RequestContext } from "../context/request-context";
import { VERSION } from "../version";
import type { RequestLink } from "./execute-channel";
import { registerLogLevel } from "./log-level";
import { registerWorkspaceResources } from "./resources";
import { registerDiscoveryTools } from "./tools/discovery";
import { registerExecuteTool } from "./tools/execute";

/** A fresh server per request (the SDK's stateless transport must not be reused). */
export function createMcpServer(ctx: RequestContext, link: RequestLink): McpServer {
  const server = new McpServer(
    { name: "code-mcp-gateway", version: VERSION },
    {
      capabilities: { tools: {}, logging: {} },
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      instructions:
        "Find upstream tools with search_tools, then call them from code with execute: process data there and return only what you need.",
    },
  );
  registerExecuteTool(server, ctx, link);
  registerLogLevel(server, ctx);
  registerDiscoveryTools(server, ctx);
  registerWorkspaceResources(server, ctx);
  return server;
}
