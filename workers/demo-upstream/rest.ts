import type { Context, Hono } from "hono";
import { z } from "zod";
import type { DemoStore } from "./data/store";
import { Comment, Customer, PRIORITIES, TICKET_STATUSES, Ticket, TicketSummary } from "./schemas";

/** JSON Schema of a zod schema, as an OpenAPI 3.1 description embeds it. */
const schema = (type: z.ZodType): Record<string, unknown> => {
  const { $schema: _, ...rest } = z.toJSONSchema(type, { io: "input" }) as Record<string, unknown>;
  return rest;
};
const json = (type: z.ZodType) => ({ content: { "application/json": { schema: schema(type) } } });
const ref = (name: string) => ({
  content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
});
const notFound = { description: "No such record", ...json(z.object({ message: z.string() })) };
const path = (name: string, example: string) => ({
  name,
  in: "path",
  required: true,
  schema: { type: "string" },
  description: `e.g. "${example}"`,
});

const NewComment = z.object({
  author: z.string(),
  body: z.string().min(1),
  internal: z.boolean().optional(),
});
const Patch = z.object({
  status: z.enum(TICKET_STATUSES).optional(),
  priority: z.enum(PRIORITIES).optional(),
});

/** The demo desk's REST twin, described by its own OpenAPI 3.1 document (the gateway's OpenAPI demo). */
export const DESCRIPTION = {
  openapi: "3.1.0",
  info: { title: "Demo support desk REST API", version: "1.0.0" },
  servers: [{ url: "/rest" }],
  paths: {
    "/customers/{customerId}": {
      get: {
        operationId: "getCustomer",
        summary: "Get a customer's profile by id",
        parameters: [path("customerId", "cus_00042")],
        responses: { "200": ref("Customer"), "404": notFound },
      },
    },
    "/customers/{customerId}/tickets": {
      get: {
        operationId: "listCustomerTickets",
        summary: "List a customer's tickets, newest first, optionally by status",
        parameters: [
          path("customerId", "cus_00042"),
          {
            name: "status",
            in: "query",
            schema: { type: "array", items: { type: "string", enum: TICKET_STATUSES } },
          },
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
        ],
        responses: { "200": json(z.object({ tickets: z.array(TicketSummary) })), "404": notFound },
      },
    },
    "/tickets/{ticketId}": {
      get: {
        operationId: "getTicket",
        summary: "Get one ticket by id",
        parameters: [path("ticketId", "tkt_000123")],
        responses: { "200": ref("Ticket"), "404": notFound },
      },
      patch: {
        operationId: "updateTicket",
        summary: "Change a ticket's status or priority",
        parameters: [path("ticketId", "tkt_000123")],
        requestBody: { required: true, ...json(Patch) },
        responses: { "200": ref("Ticket"), "404": notFound },
      },
    },
    "/tickets/{ticketId}/comments": {
      post: {
        operationId: "addComment",
        summary: "Add a comment (or an internal note) to a ticket",
        parameters: [path("ticketId", "tkt_000123")],
        requestBody: { required: true, ...json(NewComment) },
        responses: { "201": json(Comment), "404": notFound },
      },
    },
  },
  components: { schemas: { Customer: schema(Customer), Ticket: schema(Ticket) } },
};

const missing = (c: Context, what: string) => c.json({ message: `no ${what} ${c.req.param("id")}` }, 404);

/** GET /openapi.json and the routes it describes, under /rest. */
export function addRestTwin(app: Hono, store: () => DemoStore): void {
  app.get("/openapi.json", (c) => c.json(DESCRIPTION));
  app.get("/rest/customers/:id", (c) => {
    const customer = store().customer(c.req.param("id"));
    return customer ? c.json(customer) : missing(c, "customer");
  });
  app.get("/rest/customers/:id/tickets", (c) => {
    if (!store().customer(c.req.param("id"))) return missing(c, "customer");
    const statuses = c.req.queries("status") ?? [];
    const limit = Math.min(100, Math.max(1, Number(c.req.query("limit") ?? 20) || 20));
    const tickets = store()
      .ticketsOf(c.req.param("id"))
      .filter((t) => statuses.length === 0 || statuses.includes(t.status))
      .slice(-limit)
      .reverse()
      .map((t) => TicketSummary.parse(t));
    return c.json({ tickets });
  });
  app.get("/rest/tickets/:id", (c) => {
    const ticket = store().ticket(c.req.param("id"));
    return ticket ? c.json(ticket) : missing(c, "ticket");
  });
  app.patch("/rest/tickets/:id", async (c) => {
    const ticket = store().ticket(c.req.param("id"));
    if (!ticket) return missing(c, "ticket");
    const patch = Patch.safeParse(await c.req.json().catch(() => null));
    if (!patch.success) return c.json({ message: patch.error.issues[0]?.message ?? "invalid body" }, 400);
    return c.json(Ticket.parse(store().updateTicket(ticket, patch.data)));
  });
  app.post("/rest/tickets/:id/comments", async (c) => {
    const ticket = store().ticket(c.req.param("id"));
    if (!ticket) return missing(c, "ticket");
    const input = NewComment.safeParse(await c.req.json().catch(() => null));
    if (!input.success) return c.json({ message: input.error.issues[0]?.message ?? "invalid body" }, 400);
    const { author, body, internal = false } = input.data;
    return c.json(store().addComment(ticket, { author, body, internal, authorType: "agent" }), 201);
  });
}
