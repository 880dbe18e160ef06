import { z } from "zod";
import type { TicketPatch } from "../data/store";
import { PRIORITIES, TICKET_STATUSES, Ticket } from "../schemas";
import {
  agentName,
  NOT_PERSISTED,
  ok,
  type RegisterTool,
  requireAgent,
  requireTicket,
  ToolError,
  tag,
  ticketId,
} from "./common";

const input = z
  .object({
    id: ticketId,
    status: z.enum(TICKET_STATUSES).optional().describe("New status."),
    priority: z.enum(PRIORITIES).optional().describe("New priority."),
    assignee: agentName
      .nullable()
      .optional()
      .describe("Agent to assign (name from list_agents), or null to unassign."),
    tags: z.array(tag).max(10).optional().describe("Replaces all tags; [] removes them."),
  })
  .strict();

const output = {
  ticket: Ticket.describe("The ticket after the update"),
  changed: z
    .array(z.string())
    .describe("Fields whose value changed; empty when the ticket already had these values"),
};

export const registerUpdateTicket: RegisterTool = (server, store) => {
  server.registerTool(
    "update_ticket",
    {
      title: "Update ticket",
      description: `Change a ticket's status, priority, assignee and/or tags (give at least one) and return the updated ticket. ${NOT_PERSISTED}`,
      inputSchema: input,
      outputSchema: output,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ id, status, priority, assignee, tags }) => {
      const ticket = requireTicket(store, id);
      const patch: TicketPatch = {};
      if (status !== undefined) patch.status = status;
      if (priority !== undefined) patch.priority = priority;
      if (assignee !== undefined) patch.assignee = assignee === null ? null : requireAgent(store, assignee);
      if (tags !== undefined) patch.tags = [...new Set(tags)];
      if (Object.keys(patch).length === 0) {
        throw new ToolError("Nothing to update: give at least one of status, priority, assignee, tags");
      }
      const changed = (Object.keys(patch) as Array<keyof TicketPatch>).filter(
        (k) => JSON.stringify(ticket[k]) !== JSON.stringify(patch[k]),
      );
      if (changed.length > 0) store.updateTicket(ticket, patch);
      return ok({ ticket, changed });
    },
  );
};
