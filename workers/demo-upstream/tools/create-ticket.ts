import { z } from "zod";
import { PRIORITIES, Ticket } from "../schemas";
import {
  ADDS,
  agentName,
  customerId,
  NOT_PERSISTED,
  ok,
  type RegisterTool,
  requireAgent,
  requireCustomer,
  tag,
} from "./common";

const input = z
  .object({
    customerId: customerId.describe('The customer raising the ticket, e.g. "cus_00042".'),
    subject: z.string().trim().min(3).max(200).describe("One-line summary, 3-200 characters."),
    body: z.string().trim().min(1).max(5000).describe("The customer's description of the problem."),
    priority: z.enum(PRIORITIES).default("normal").describe("Default normal."),
    tags: z.array(tag).max(10).default([]).describe('Up to 10 tags, e.g. ["billing"].'),
    assignee: agentName
      .optional()
      .describe("Agent to assign (name from list_agents); unassigned if omitted."),
  })
  .strict();

export const registerCreateTicket: RegisterTool = (server, store) => {
  server.registerTool(
    "create_ticket",
    {
      title: "Create ticket",
      description: `Open a new ticket (status "open") for an existing customer and return it with its new id. ${NOT_PERSISTED}`,
      inputSchema: input,
      outputSchema: { ticket: Ticket },
      annotations: ADDS,
    },
    (args) => {
      const customer = requireCustomer(store, args.customerId);
      const ticket = store.createTicket({
        customerId: customer.id,
        subject: args.subject,
        body: args.body,
        priority: args.priority,
        tags: [...new Set(args.tags)],
        assignee: args.assignee === undefined ? null : requireAgent(store, args.assignee),
      });
      return ok({ ticket });
    },
  );
};
