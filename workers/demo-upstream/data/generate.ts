import type { Agent, Comment, Customer, Ticket } from "../schemas";
import { generateConversation } from "./comments-gen";
import { generateAgents, generateCustomers } from "./people-gen";
import { Random } from "./random";
import { generateTickets } from "./tickets-gen";

export interface GenerateOptions {
  seed?: number;
  customers?: number;
  tickets?: number;
  agents?: number;
  /** The dataset's "now": tickets fall in the year before it. Fixed, so the data never depends on the clock. */
  now?: string;
}

export const DATASET_DEFAULTS = {
  seed: 20260401,
  customers: 2000,
  tickets: 10000,
  agents: 25,
  now: "2026-04-01T00:00:00.000Z",
} satisfies Required<GenerateOptions>;

export interface Dataset {
  customers: Customer[];
  /** Oldest first. */
  tickets: Ticket[];
  agents: Agent[];
  /** How many comments the generated tickets have in all. */
  commentTotal: number;
  /**
   * The generated comments of tickets[index], oldest first. Made on demand from the ticket's own seed;
   * call it before the ticket is changed (it reads the ticket's status and assignee).
   */
  conversation(index: number): Comment[];
}

/** The whole desk, deterministically from the seed: the same options always give the same records. */
export function generateDataset(options: GenerateOptions = {}): Dataset {
  const d = DATASET_DEFAULTS;
  const seed = options.seed ?? d.seed;
  const nowMs = Date.parse(options.now ?? d.now);
  const rng = new Random(seed);
  const agents = generateAgents(rng, options.agents ?? d.agents);
  const customers = generateCustomers(rng, options.customers ?? d.customers, nowMs);
  const { tickets, firstCommentSeq, commentTotal } = generateTickets(
    rng,
    seed,
    customers,
    agents,
    options.tickets ?? d.tickets,
    nowMs,
  );
  const customerIndex = (id: string): number => Number.parseInt(id.slice(4), 10) - 1;
  return {
    customers,
    tickets,
    agents,
    commentTotal,
    conversation: (index) => {
      const ticket = tickets[index];
      if (!ticket) return [];
      return generateConversation({
        seed,
        nowMs,
        ticket,
        ticketSeq: index + 1,
        firstCommentSeq: firstCommentSeq[index]!,
        customer: customers[customerIndex(ticket.customerId)]!,
      });
    },
  };
}
