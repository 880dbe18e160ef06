import { z } from "zod";
import { Customer, TICKET_STATUSES, type TicketStatus, TicketSummary } from "../schemas";
import { customerId, ok, READ_ONLY, type RegisterTool, requireCustomer } from "./common";

const input = z.object({ id: customerId }).strict();

const output = {
  customer: Customer,
  ticketCounts: z
    .object({
      open: z.number().int(),
      pending: z.number().int(),
      resolved: z.number().int(),
      closed: z.number().int(),
      total: z.number().int(),
    })
    .describe("The customer's tickets by status"),
  recentTickets: z.array(TicketSummary).describe("The customer's five newest tickets"),
};

export const registerGetCustomer: RegisterTool = (server, store) => {
  server.registerTool(
    "get_customer",
    {
      title: "Get customer",
      description:
        "Get one customer by id with their ticket counts by status and their five most recent tickets. list_tickets with `customerId` pages through all of them.",
      inputSchema: input,
      outputSchema: output,
      annotations: READ_ONLY,
    },
    ({ id }) => {
      const customer = requireCustomer(store, id);
      const tickets = store.ticketsOf(customer.id);
      const counts = Object.fromEntries(TICKET_STATUSES.map((s) => [s, 0])) as Record<TicketStatus, number>;
      for (const t of tickets) counts[t.status] += 1;
      const recentTickets = tickets
        .slice(-5)
        .reverse()
        .map(({ id, subject, status, priority, assignee, createdAt }) => ({
          id,
          subject,
          status,
          priority,
          assignee,
          createdAt,
        }));
      return ok({ customer, ticketCounts: { ...counts, total: tickets.length }, recentTickets });
    },
  );
};
