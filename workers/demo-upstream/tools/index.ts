import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { DemoStore } from "../data/store";
import { registerAddTicketComment } from "./add-ticket-comment";
import type { RegisterTool } from "./common";
import { registerCreateTicket } from "./create-ticket";
import { registerGetCustomer } from "./get-customer";
import { registerGetTicket } from "./get-ticket";
import { registerListAgents } from "./list-agents";
import { registerListCustomers } from "./list-customers";
import { registerListTickets } from "./list-tickets";
import { registerSearchCustomers } from "./search-customers";
import { registerSearchTickets } from "./search-tickets";
import { registerTicketStats } from "./ticket-stats";
import { registerUpdateTicket } from "./update-ticket";

/** In the order tools/list shows them: tickets (read, then write), customers, agents. */
const TOOLS: readonly RegisterTool[] = [
  registerListTickets,
  registerGetTicket,
  registerSearchTickets,
  registerTicketStats,
  registerCreateTicket,
  registerUpdateTicket,
  registerAddTicketComment,
  registerListCustomers,
  registerGetCustomer,
  registerSearchCustomers,
  registerListAgents,
];

export function registerTools(server: McpServer, store: DemoStore): void {
  for (const register of TOOLS) register(server, store);
}
