import { z } from "zod";
import { Ticket } from "../schemas";
import { ok, READ_ONLY, type RegisterTool } from "./common";
import { idSeq, pageArgs, paginate } from "./cursor";
import { newestFirst, ticketFilters, ticketMatcher } from "./ticket-filter";

const input = z.object({ ...ticketFilters, ...pageArgs }).strict();

const output = {
  tickets: z.array(Ticket),
  total: z.number().int().describe("Tickets matching the filters, over all pages"),
  nextCursor: z.string().optional().describe("Pass as `cursor` for the next page; absent on the last page"),
};

export const registerListTickets: RegisterTool = (server, store) => {
  server.registerTool(
    "list_tickets",
    {
      title: "List tickets",
      description:
        "List support tickets, newest first, optionally filtered by status, priority, assignee, customer, tag and creation date (filters combine with AND). Paginated: returns up to `limit` tickets, the total count and `nextCursor` while more remain. For counts only, ticket_stats is cheaper.",
      inputSchema: input,
      outputSchema: output,
      annotations: READ_ONLY,
    },
    ({ limit, cursor, ...filters }) => {
      const matches = newestFirst(store, ticketMatcher(store, filters));
      const page = paginate(matches, (t) => idSeq(t.id), "desc", { limit, cursor }, filters);
      return ok({
        tickets: page.items,
        total: page.total,
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      });
    },
  );
};
