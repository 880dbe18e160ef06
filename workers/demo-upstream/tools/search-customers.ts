import { z } from "zod";
import { Customer } from "../schemas";
import { ok, READ_ONLY, type RegisterTool } from "./common";

const input = z
  .object({
    query: z
      .string()
      .trim()
      .min(2)
      .max(100)
      .describe(
        'Text to find in customer names, emails and company names (case-insensitive), e.g. "garcia".',
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(20)
      .describe("Most results to return, 1-100 (default 20)."),
  })
  .strict();

const output = {
  customers: z
    .array(Customer)
    .describe("Best matches first: name or email starting with the query, then the rest"),
  total: z.number().int().describe("All customers that match, of which `customers` are the first `limit`"),
};

function rank(c: Customer, q: string): number {
  const name = c.name.toLowerCase();
  const email = c.email.toLowerCase();
  if (name.startsWith(q) || email.startsWith(q)) return 3;
  if (name.includes(q) || email.includes(q)) return 2;
  return c.company.toLowerCase().includes(q) ? 1 : 0;
}

export const registerSearchCustomers: RegisterTool = (server, store) => {
  server.registerTool(
    "search_customers",
    {
      title: "Search customers",
      description:
        "Find customers whose name, email or company contains the query (case-insensitive substring). Returns the best matches first and the total number of matches.",
      inputSchema: input,
      outputSchema: output,
      annotations: READ_ONLY,
    },
    ({ query, limit }) => {
      const q = query.toLowerCase();
      const hits: Array<{ customer: Customer; rank: number }> = [];
      for (const customer of store.customers) {
        const r = rank(customer, q);
        if (r > 0) hits.push({ customer, rank: r });
      }
      hits.sort((a, b) => b.rank - a.rank); // stable: sign-up order within a rank
      return ok({ customers: hits.slice(0, limit).map((h) => h.customer), total: hits.length });
    },
  );
};
