import { McpServer } from "@modelcontextprotocol/server";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/server/validators/cf-worker";
import type { RequestContext } from "../request/context";
import { VERSION } from "../version";
import type { RequestLink } from "./execute-channel";
import { registerLogLevel } from "./log-level";
import { registerWorkspaceResources } from "./resources";
import { roundStateCodec } from "./round-trip";
import { attachSkillsExtension } from "./skills-extension";
import { registerTasks } from "./tasks";
import { registerDiscoveryTools } from "./tools/discovery";
import { registerExecuteTool } from "./tools/execute";

/** A fresh server per request (the SDK's stateless transport must not be reused). */
export function createMcpServer(ctx: RequestContext, link: RequestLink): McpServer {
  const server = new McpServer(
    { name: "code-mcp-gateway", version: VERSION },
    {
      capabilities: { tools: {}, logging: {} },
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      requestState: { verify: roundStateCodec(ctx.env).verify },
      // 2026-07-28 list results say how long a client may keep them: the tools are the same for every
      // caller; resources are the team's and the session's, and change with every execution.
      cacheHints: {
        "tools/list": { ttlMs: 600_000, cacheScope: "public" },
        "resources/templates/list": { ttlMs: 600_000, cacheScope: "public" },
        "resources/list": { ttlMs: 0, cacheScope: "private" },
        "resources/read": { ttlMs: 0, cacheScope: "private" },
      },
      instructions:
        "Find upstream tools with search_tools, then call them from code with execute: process data there and return only what you need.",
    },
  );
  // Before the gateway's resource handlers: the extension's resource template installs the SDK's own,
  // which registerWorkspaceResources then replaces (they serve skill:// and workspace:// alike).
  attachSkillsExtension(server, ctx);
  registerExecuteTool(server, ctx, link);
  registerLogLevel(server, ctx);
  registerDiscoveryTools(server, ctx);
  if (ctx.mcpEra === "modern") registerTasks(server, ctx);
  registerWorkspaceResources(server, ctx);
  return server;
}
