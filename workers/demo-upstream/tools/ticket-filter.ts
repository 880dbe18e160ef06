import { z } from "zod";
import type { DemoStore } from "../data/store";
import { PRIORITIES, TICKET_STATUSES, type Ticket } from "../schemas";
import {
  agentName,
  customerId,
  dateRange,
  parseDateRange,
  requireAgent,
  requireCustomer,
  tag,
} from "./common";

/** Filters shared by list_tickets and ticket_stats; all optional, combined with AND. */
export const ticketFilters = {
  status: z.enum(TICKET_STATUSES).optional().describe("Only tickets with this status."),
  priority: z.enum(PRIORITIES).optional().describe("Only tickets with this priority."),
  assignee: agentName
    .optional()
    .describe(
      'Only tickets assigned to this agent (name from list_agents, case-insensitive), or "unassigned".',
    ),
  customerId: customerId.optional().describe('Only tickets of this customer, e.g. "cus_00042".'),
  tag: tag.optional().describe('Only tickets carrying this tag, e.g. "billing", "vip", "escalated".'),
  ...dateRange,
};

const TicketFilters = z.object(ticketFilters);
export type TicketFilters = z.infer<typeof TicketFilters>;

/** A predicate for the filters; unknown agents and customers are errors rather than empty results. */
export function ticketMatcher(store: DemoStore, f: TicketFilters): (t: Ticket) => boolean {
  const { after, before } = parseDateRange(f);
  const unassigned = f.assignee?.toLowerCase() === "unassigned";
  const assignee = f.assignee === undefined || unassigned ? undefined : requireAgent(store, f.assignee);
  if (f.customerId !== undefined) requireCustomer(store, f.customerId);
  return (t) =>
    (f.status === undefined || t.status === f.status) &&
    (f.priority === undefined || t.priority === f.priority) &&
    (!unassigned || t.assignee === null) &&
    (assignee === undefined || t.assignee === assignee) &&
    (f.customerId === undefined || t.customerId === f.customerId) &&
    (f.tag === undefined || t.tags.includes(f.tag)) &&
    (after === undefined || t.createdAt >= after) &&
    (before === undefined || t.createdAt < before);
}

/** Newest first (ids grow with creation time). */
export function newestFirst(store: DemoStore, match: (t: Ticket) => boolean): Ticket[] {
  const out: Ticket[] = [];
  for (let i = store.tickets.length - 1; i >= 0; i--) {
    const t = store.tickets[i]!;
    if (match(t)) out.push(t);
  }
  return out;
}
