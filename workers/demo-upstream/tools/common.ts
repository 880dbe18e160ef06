import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { DemoStore } from "../data/store";
import type { Customer, Ticket } from "../schemas";

/** Every tool module exports one of these; tools/index.ts registers them all. */
export type RegisterTool = (server: McpServer, store: DemoStore) => void;

/**
 * A failure the caller can fix (unknown id, bad cursor, nothing to update). Thrown from a handler,
 * the SDK turns it into an `isError: true` result carrying the message.
 */
export class ToolError extends Error {
  override name = "ToolError";
}

/** A successful result: `structuredContent` plus the same JSON as text for clients that only read text. */
export function ok<T extends Record<string, unknown>>(data: T): CallToolResult & { structuredContent: T } {
  return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
/** Adds data (create, comment): not read-only, not destructive, not idempotent. */
export const ADDS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

export const NOT_PERSISTED = "Demo data: changes live in this server's memory only and are not persisted.";

export const ticketId = z.string().trim().min(1).max(64).describe('Ticket id, e.g. "tkt_000123".');

export const customerId = z.string().trim().min(1).max(64).describe('Customer id, e.g. "cus_00042".');

export const agentName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe("Agent name as list_agents returns it (case-insensitive).");

export const tag = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, "Tags are 1-32 characters: lowercase letters, digits and dashes")
  .describe('A tag, e.g. "billing" or "vip".');

/**
 * A date ("2026-03-01", midnight UTC) or a date-time with an offset ("2026-03-01T12:00:00Z"). A short
 * pattern (zod's ISO ones cost ~600 characters per field in tools/list); toIsoBound rejects impossible dates.
 */
export const instant = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/,
    'Expected a date ("2026-03-01") or a date-time with offset ("2026-03-01T12:00:00Z")',
  );

/** The canonical form stored records use, so bounds compare as strings. */
export function toIsoBound(value: string): string {
  const month = Number(value.slice(5, 7));
  const day = new Date(Date.UTC(Number(value.slice(0, 4)), month - 1, Number(value.slice(8, 10))));
  const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms) || day.getUTCMonth() !== month - 1)
    throw new ToolError(`"${value}" is not a valid date`);
  return new Date(ms).toISOString();
}

export const dateRange = {
  createdAfter: instant
    .optional()
    .describe('Only records created at or after this time. A date ("2026-03-01") means 00:00 UTC.'),
  createdBefore: instant
    .optional()
    .describe('Only records created before this time. A date ("2026-03-31") means 00:00 UTC.'),
};

/** Checks the range and returns canonical bounds. */
export function parseDateRange(range: { createdAfter?: string; createdBefore?: string }): {
  after?: string;
  before?: string;
} {
  const after = range.createdAfter === undefined ? undefined : toIsoBound(range.createdAfter);
  const before = range.createdBefore === undefined ? undefined : toIsoBound(range.createdBefore);
  if (after !== undefined && before !== undefined && after >= before) {
    throw new ToolError(
      `createdAfter (${range.createdAfter}) must be earlier than createdBefore (${range.createdBefore})`,
    );
  }
  return { ...(after ? { after } : {}), ...(before ? { before } : {}) };
}

export function requireAgent(store: DemoStore, name: string): string {
  const agent = store.agent(name);
  if (!agent)
    throw new ToolError(`No agent named "${name}"; list_agents shows the ${store.agents.length} agents`);
  return agent.name;
}

export function requireCustomer(store: DemoStore, id: string): Customer {
  const customer = store.customer(id);
  if (!customer) throw new ToolError(`No customer with id "${id}" (ids look like "cus_00042")`);
  return customer;
}

export function requireTicket(store: DemoStore, id: string): Ticket {
  const ticket = store.ticket(id);
  if (!ticket) throw new ToolError(`No ticket with id "${id}" (ids look like "tkt_000123")`);
  return ticket;
}
