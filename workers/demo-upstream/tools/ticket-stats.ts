import { z } from "zod";
import type { Ticket } from "../schemas";
import { ok, READ_ONLY, type RegisterTool } from "./common";
import { ticketFilters, ticketMatcher } from "./ticket-filter";

const GROUPS = ["status", "priority", "assignee", "tag"] as const;

const input = z
  .object({
    groupBy: z.enum(GROUPS).describe("Count tickets per status, priority, assignee or tag."),
    ...ticketFilters,
  })
  .strict();

const output = {
  groupBy: z.enum(GROUPS),
  total: z.number().int().describe("Tickets matching the filters"),
  groups: z
    .array(z.object({ key: z.string(), count: z.number().int() }))
    .describe('Largest first. Unassigned tickets count under "unassigned"; a ticket counts once per tag'),
};

function keys(t: Ticket, groupBy: (typeof GROUPS)[number]): readonly string[] {
  if (groupBy === "tag") return t.tags;
  if (groupBy === "assignee") return [t.assignee ?? "unassigned"];
  return [t[groupBy]];
}

export const registerTicketStats: RegisterTool = (server, store) => {
  server.registerTool(
    "ticket_stats",
    {
      title: "Ticket statistics",
      description:
        'Count tickets grouped by status, priority, assignee or tag, optionally restricted by the same filters as list_tickets (e.g. a creation date range, or status "open" to see open tickets per assignee). Much cheaper than listing tickets to count them.',
      inputSchema: input,
      outputSchema: output,
      annotations: READ_ONLY,
    },
    ({ groupBy, ...filters }) => {
      const match = ticketMatcher(store, filters);
      const counts = new Map<string, number>();
      let total = 0;
      for (const t of store.tickets) {
        if (!match(t)) continue;
        total += 1;
        for (const key of keys(t, groupBy)) counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const groups = [...counts]
        .map(([key, count]) => ({ key, count }))
        .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
      return ok({ groupBy, total, groups });
    },
  );
};
