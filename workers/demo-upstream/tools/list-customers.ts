import { z } from "zod";
import { Customer, PLANS } from "../schemas";
import { ok, READ_ONLY, type RegisterTool } from "./common";
import { idSeq, pageArgs, paginate } from "./cursor";

const input = z
  .object({
    plan: z.enum(PLANS).optional().describe("Only customers on this plan."),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, "A two-letter ISO 3166-1 country code, e.g. US, DE, GB")
      .optional()
      .describe('Two-letter country code, e.g. "US", "DE".'),
    company: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('Only customers whose company name contains this text (case-insensitive), e.g. "acme".'),
    ...pageArgs,
  })
  .strict();

const output = {
  customers: z.array(Customer),
  total: z.number().int().describe("Customers matching the filters, over all pages"),
  nextCursor: z.string().optional().describe("Pass as `cursor` for the next page; absent on the last page"),
};

export const registerListCustomers: RegisterTool = (server, store) => {
  server.registerTool(
    "list_customers",
    {
      title: "List customers",
      description:
        "List customer accounts in sign-up order (oldest first), optionally filtered by plan, country and company (combined with AND). Paginated: up to `limit` customers, the total count and `nextCursor` while more remain. To find someone by name or email, use search_customers.",
      inputSchema: input,
      outputSchema: output,
      annotations: READ_ONLY,
    },
    ({ limit, cursor, ...filters }) => {
      const company = filters.company?.toLowerCase();
      const matches = store.customers.filter(
        (c) =>
          (filters.plan === undefined || c.plan === filters.plan) &&
          (filters.country === undefined || c.country === filters.country) &&
          (company === undefined || c.company.toLowerCase().includes(company)),
      );
      const page = paginate(matches, (c) => idSeq(c.id), "asc", { limit, cursor }, filters);
      return ok({
        customers: page.items,
        total: page.total,
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      });
    },
  );
};
