import { z } from "zod";
import { Comment, CustomerSummary, Ticket } from "../schemas";
import { ok, READ_ONLY, type RegisterTool, requireCustomer, requireTicket, ticketId } from "./common";

const input = z
  .object({
    id: ticketId,
    includeInternal: z
      .boolean()
      .default(true)
      .describe("Include internal agent notes among the comments (default true)."),
  })
  .strict();

const output = {
  ticket: Ticket,
  customer: CustomerSummary,
  comments: z.array(Comment).describe("Oldest first"),
};

export const registerGetTicket: RegisterTool = (server, store) => {
  server.registerTool(
    "get_ticket",
    {
      title: "Get ticket",
      description:
        "Get one ticket by id with its full conversation (comments, oldest first) and a summary of the customer who raised it.",
      inputSchema: input,
      outputSchema: output,
      annotations: READ_ONLY,
    },
    ({ id, includeInternal }) => {
      const ticket = requireTicket(store, id);
      const { name, email, company, plan } = requireCustomer(store, ticket.customerId);
      const comments = store.commentsOf(ticket.id).filter((c) => includeInternal || !c.internal);
      return ok({ ticket, customer: { id: ticket.customerId, name, email, company, plan }, comments });
    },
  );
};
