import { z } from "zod";
import { Comment, Ticket } from "../schemas";
import {
  ADDS,
  agentName,
  NOT_PERSISTED,
  ok,
  type RegisterTool,
  requireAgent,
  requireTicket,
  ToolError,
  ticketId,
} from "./common";

const input = z
  .object({
    ticketId,
    body: z.string().trim().min(1).max(5000).describe("The comment text."),
    author: agentName
      .optional()
      .describe("Agent writing the comment (name from list_agents). Default: the ticket's assignee."),
    internal: z
      .boolean()
      .default(false)
      .describe("true for an internal note the customer does not see; default false (a reply)."),
  })
  .strict();

export const registerAddTicketComment: RegisterTool = (server, store) => {
  server.registerTool(
    "add_ticket_comment",
    {
      title: "Add ticket comment",
      description: `Add an agent reply or internal note to a ticket that is not closed; returns the comment and the updated ticket. ${NOT_PERSISTED}`,
      inputSchema: input,
      outputSchema: { comment: Comment, ticket: Ticket },
      annotations: ADDS,
    },
    (args) => {
      const ticket = requireTicket(store, args.ticketId);
      if (ticket.status === "closed") {
        throw new ToolError(
          `Ticket ${ticket.id} is closed; reopen it with update_ticket (status "open") first`,
        );
      }
      const author = args.author === undefined ? ticket.assignee : requireAgent(store, args.author);
      if (author === null) {
        throw new ToolError(
          `Ticket ${ticket.id} is unassigned; name the agent writing the comment in "author"`,
        );
      }
      const comment = store.addComment(ticket, {
        author,
        authorType: "agent",
        internal: args.internal,
        body: args.body,
      });
      return ok({ comment, ticket });
    },
  );
};
