import { z } from "zod";

/** The demo desk's records. These schemas are the source of truth: types and tool output schemas come from them. */

export const PLANS = ["free", "pro", "enterprise"] as const;
export const TICKET_STATUSES = ["open", "pending", "resolved", "closed"] as const;
export const PRIORITIES = ["low", "normal", "high", "urgent"] as const;
export const TEAMS = ["billing", "technical", "onboarding", "accounts"] as const;
export const AUTHOR_TYPES = ["agent", "customer"] as const;

export type Plan = (typeof PLANS)[number];
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type Priority = (typeof PRIORITIES)[number];
export type Team = (typeof TEAMS)[number];

const isoTime = z.string().describe("ISO 8601, UTC");

export const Customer = z.object({
  id: z.string().describe('e.g. "cus_00042"'),
  name: z.string(),
  email: z.string(),
  phone: z.string().describe("E.164, e.g. +14155550123"),
  company: z.string(),
  plan: z.enum(PLANS),
  country: z.string().describe("ISO 3166-1 alpha-2"),
  createdAt: isoTime,
});
export type Customer = z.infer<typeof Customer>;

export const CustomerSummary = Customer.pick({
  id: true,
  name: true,
  email: true,
  company: true,
  plan: true,
});
export type CustomerSummary = z.infer<typeof CustomerSummary>;

export const Ticket = z.object({
  id: z.string().describe('e.g. "tkt_000123"'),
  customerId: z.string(),
  subject: z.string(),
  body: z.string(),
  status: z.enum(TICKET_STATUSES),
  priority: z.enum(PRIORITIES),
  tags: z.array(z.string()),
  assignee: z.string().nullable().describe("Agent name; null when unassigned"),
  commentCount: z.number().int(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type Ticket = z.infer<typeof Ticket>;

export const TicketSummary = Ticket.pick({
  id: true,
  subject: true,
  status: true,
  priority: true,
  assignee: true,
  createdAt: true,
});
export type TicketSummary = z.infer<typeof TicketSummary>;

export const Comment = z.object({
  id: z.string().describe('e.g. "cmt_0000123"'),
  ticketId: z.string(),
  author: z.string(),
  authorType: z.enum(AUTHOR_TYPES),
  internal: z.boolean().describe("Internal notes are visible to agents only"),
  body: z.string(),
  createdAt: isoTime,
});
export type Comment = z.infer<typeof Comment>;

export const Agent = z.object({
  id: z.string().describe('e.g. "agt_007"'),
  name: z.string(),
  email: z.string(),
  team: z.enum(TEAMS),
});
export type Agent = z.infer<typeof Agent>;

export const RecordCounts = z.object({
  customers: z.number().int(),
  tickets: z.number().int(),
  comments: z.number().int(),
  agents: z.number().int(),
});
export type RecordCounts = z.infer<typeof RecordCounts>;
