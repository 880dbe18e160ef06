import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import type { DemoStore } from "./data/store";
import { registerTools } from "./tools";

export const SERVER_INFO = { name: "demo-support-desk", version: "1.0.0" };

const INSTRUCTIONS =
  "Brightdesk, a demo support desk / CRM: about 2,000 customers, 10,000 tickets with their comments, and 25 agents. Use ticket_stats for counts, list_* with filters and cursors to page, search_* for free text, get_* for one record. Writes change this server's in-memory demo data only and are not persisted.";

/** A fresh server per request (the SDK's stateless transport must not be reused). */
export function createDemoServer(store: DemoStore): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {} },
    // Workers forbid eval, which AJV (the SDK's default validator) needs.
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    instructions: INSTRUCTIONS,
  });
  registerTools(server, store);
  return server;
}
