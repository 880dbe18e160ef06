import type { Comment, Customer, Ticket, TicketStatus } from "../schemas";
import { deriveSeed, Random } from "./random";
import { DAY_MS, isoTime } from "./time";
import { AGENT_REPLIES, CUSTOMER_REPLIES, INTERNAL_NOTES, MONTHS } from "./topics";

/**
 * A ticket's conversation comes from its own PRNG (seeded from the dataset seed and the ticket number),
 * so generation only needs the comment count and times, and the comments themselves are made when a
 * ticket is first read. That keeps ~28,000 objects out of start-up.
 */
export function conversationRandom(seed: number, ticketSeq: number): Random {
  return new Random(deriveSeed(seed, ticketSeq));
}

function commentCount(rng: Random, status: TicketStatus, assigned: boolean): number {
  if (!assigned) return 0; // nobody has picked it up yet
  if (status === "open") return rng.int(0, 1);
  if (status === "pending") return rng.int(1, 3);
  return rng.int(2, 4);
}

/** Live tickets have activity up to now; finished ones within ten days of opening. */
function activitySpan(status: TicketStatus, at: number, nowMs: number): number {
  const live = status === "open" || status === "pending";
  return live ? nowMs - at : Math.min(nowMs - at, 10 * DAY_MS);
}

/**
 * Comment times, ascending: the first draws of the ticket's PRNG (a count, then one time per comment).
 */
export function activityTimes(rng: Random, ticket: ActivityInput): number[] {
  const span = activitySpan(ticket.status, ticket.at, ticket.nowMs);
  const times: number[] = [];
  for (let n = commentCount(rng, ticket.status, ticket.assigned); n > 0; n--) {
    times.push(ticket.at + Math.floor(rng.float() * span));
  }
  return times.sort((a, b) => a - b);
}

/** The same draws as activityTimes, without the array: how many comments, and the last one's time. */
export function activitySummary(rng: Random, ticket: ActivityInput): { count: number; last: number } {
  const span = activitySpan(ticket.status, ticket.at, ticket.nowMs);
  const count = commentCount(rng, ticket.status, ticket.assigned);
  let last = ticket.at;
  for (let n = 0; n < count; n++) last = Math.max(last, ticket.at + Math.floor(rng.float() * span));
  return { count, last };
}

export interface ActivityInput {
  status: TicketStatus;
  assigned: boolean;
  /** Creation time, ms. */
  at: number;
  nowMs: number;
}

function fillNote(template: string, rng: Random, customer: Customer): string {
  return template
    .replace("{first}", customer.name.slice(0, customer.name.indexOf(" ")))
    .replace("{plan}", customer.plan)
    .replace("{month}", rng.pick(MONTHS))
    .replace("{n}", String(rng.int(1000, 9999)));
}

export interface ConversationInput {
  seed: number;
  nowMs: number;
  /** The ticket as generated (before any write), its 1-based number and its first comment's number. */
  ticket: Ticket;
  ticketSeq: number;
  firstCommentSeq: number;
  customer: Customer;
}

/** The generated comments of one ticket, oldest first: agent and customer take turns, agents start. */
export function generateConversation(input: ConversationInput): Comment[] {
  const { ticket, customer } = input;
  const rng = conversationRandom(input.seed, input.ticketSeq);
  const times = activityTimes(rng, {
    status: ticket.status,
    assigned: ticket.assignee !== null,
    at: Date.parse(ticket.createdAt),
    nowMs: input.nowMs,
  });
  return times.map((time, n) => {
    const fromAgent = n % 2 === 0;
    const internal = fromAgent && rng.chance(0.15);
    const template = internal
      ? rng.pick(INTERNAL_NOTES)
      : rng.pick(fromAgent ? AGENT_REPLIES : CUSTOMER_REPLIES);
    return {
      id: `cmt_${String(input.firstCommentSeq + n).padStart(7, "0")}`,
      ticketId: ticket.id,
      // Only assigned tickets have generated comments, so agent turns are the assignee's.
      author: fromAgent ? (ticket.assignee ?? "") : customer.name,
      authorType: fromAgent ? "agent" : "customer",
      internal,
      body: fillNote(template, rng, customer),
      createdAt: isoTime(time),
    };
  });
}
