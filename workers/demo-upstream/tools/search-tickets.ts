import { z } from "zod";
import { TICKET_STATUSES, Ticket } from "../schemas";
import { ok, READ_ONLY, type RegisterTool, ToolError } from "./common";

const input = z
  .object({
    query: z
      .string()
      .min(1)
      .max(200)
      .describe('Words to find in ticket subjects and bodies, e.g. "refund invoice". Every word must match.'),
    status: z.enum(TICKET_STATUSES).optional().describe("Only tickets with this status."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(10)
      .describe("Most results to return, 1-100 (default 10)."),
  })
  .strict();

const output = {
  tickets: z
    .array(Ticket)
    .describe("Best matches first: subject hits count more than body hits; then newest"),
  total: z.number().int().describe("All tickets that match, of which `tickets` are the first `limit`"),
};

/** The distinct lowercase words of the query (letters and digits), at most 10. */
function terms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  return [...new Set(words)].slice(0, 10);
}

function score(ticket: Ticket, words: readonly string[]): number {
  const subject = ticket.subject.toLowerCase();
  const body = ticket.body.toLowerCase();
  let total = 0;
  for (const w of words) {
    const s = subject.includes(w) ? 3 : 0;
    const b = body.includes(w) ? 1 : 0;
    if (s + b === 0) return 0;
    total += s + b;
  }
  return total;
}

export const registerSearchTickets: RegisterTool = (server, store) => {
  server.registerTool(
    "search_tickets",
    {
      title: "Search tickets",
      description:
        "Full-text search over ticket subjects and bodies (case-insensitive substring match; every word of the query must appear). Returns the best matches first and the total number of matches. Use list_tickets for exact filters.",
      inputSchema: input,
      outputSchema: output,
      annotations: READ_ONLY,
    },
    ({ query, status, limit }) => {
      const words = terms(query);
      if (words.length === 0) throw new ToolError(`The query "${query}" has no words to search for`);
      const hits: Array<{ ticket: Ticket; score: number; index: number }> = [];
      store.tickets.forEach((ticket, index) => {
        if (status !== undefined && ticket.status !== status) return;
        const s = score(ticket, words);
        if (s > 0) hits.push({ ticket, score: s, index });
      });
      hits.sort((a, b) => b.score - a.score || b.index - a.index);
      return ok({ tickets: hits.slice(0, limit).map((h) => h.ticket), total: hits.length });
    },
  );
};
