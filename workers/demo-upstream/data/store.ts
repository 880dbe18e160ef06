import type { Agent, Comment, Customer, Priority, RecordCounts, Ticket, TicketStatus } from "../schemas";
import { type Dataset, type GenerateOptions, generateDataset } from "./generate";

export interface NewTicket {
  customerId: string;
  subject: string;
  body: string;
  priority: Priority;
  tags: string[];
  assignee: string | null;
}

export interface TicketPatch {
  status?: TicketStatus;
  priority?: Priority;
  assignee?: string | null;
  tags?: string[];
}

export interface NewComment {
  author: string;
  authorType: Comment["authorType"];
  internal: boolean;
  body: string;
}

/**
 * The desk's records with lookup indexes. Writes change this isolate's copy only: nothing is persisted,
 * and another isolate (or a restart) starts again from the generated data.
 */
export class DemoStore {
  readonly customers: readonly Customer[];
  readonly tickets: Ticket[];
  readonly agents: readonly Agent[];
  /** Built on first use: most requests never need it. */
  private ticketsByCustomer: Map<string, Ticket[]> | undefined;
  private readonly commentsByTicket = new Map<string, Comment[]>();
  private readonly agentByName = new Map<string, Agent>();
  private readonly generatedTickets: number;
  private readonly conversation: (index: number) => Comment[];
  private commentTotal: number;

  constructor(data: Dataset) {
    this.customers = data.customers;
    this.tickets = data.tickets;
    this.agents = data.agents;
    this.generatedTickets = data.tickets.length;
    this.conversation = data.conversation;
    this.commentTotal = data.commentTotal;
    for (const a of data.agents) this.agentByName.set(a.name.toLowerCase(), a);
  }

  /** Ids are sequence numbers ("cus_00042" is customers[41]), so lookups need no index. */
  customer(id: string): Customer | undefined {
    const c = this.customers[seqOf(id, "cus_") - 1];
    return c?.id === id ? c : undefined;
  }

  ticket(id: string): Ticket | undefined {
    const t = this.tickets[seqOf(id, "tkt_") - 1];
    return t?.id === id ? t : undefined;
  }

  /** Case-insensitive. */
  agent(name: string): Agent | undefined {
    return this.agentByName.get(name.trim().toLowerCase());
  }

  /** Oldest first. */
  ticketsOf(customerId: string): readonly Ticket[] {
    if (this.ticketsByCustomer === undefined) {
      this.ticketsByCustomer = new Map();
      for (const t of this.tickets) this.indexTicket(t);
    }
    return this.ticketsByCustomer.get(customerId) ?? [];
  }

  /** Oldest first. A generated ticket's comments are made on first use (see Dataset.conversation). */
  commentsOf(ticketId: string): readonly Comment[] {
    return this.ticket(ticketId) ? this.comments(ticketId) : [];
  }

  counts(): RecordCounts {
    return {
      customers: this.customers.length,
      tickets: this.tickets.length,
      comments: this.commentTotal,
      agents: this.agents.length,
    };
  }

  createTicket(input: NewTicket): Ticket {
    const last = this.tickets.at(-1);
    // Ids and creation times both increase, so "newest first" is also "highest id first".
    const at = new Date(Math.max(Date.now(), last ? Date.parse(last.createdAt) + 1000 : 0)).toISOString();
    const ticket: Ticket = {
      id: `tkt_${String(this.tickets.length + 1).padStart(6, "0")}`,
      ...input,
      status: "open",
      commentCount: 0,
      createdAt: at,
      updatedAt: at,
    };
    this.tickets.push(ticket);
    if (this.ticketsByCustomer) this.indexTicket(ticket);
    return ticket;
  }

  updateTicket(ticket: Ticket, patch: TicketPatch): Ticket {
    this.comments(ticket.id); // generated from the ticket as it was, so made before it changes
    Object.assign(ticket, patch, { updatedAt: this.touchTime(ticket) });
    return ticket;
  }

  addComment(ticket: Ticket, input: NewComment): Comment {
    const list = this.comments(ticket.id);
    this.commentTotal += 1;
    const comment: Comment = {
      id: `cmt_${String(this.commentTotal).padStart(7, "0")}`,
      ticketId: ticket.id,
      ...input,
      createdAt: this.touchTime(ticket),
    };
    list.push(comment);
    ticket.commentCount += 1;
    ticket.updatedAt = comment.createdAt;
    return comment;
  }

  /** Now, but never before the ticket's last change. */
  private touchTime(ticket: Ticket): string {
    return new Date(Math.max(Date.now(), Date.parse(ticket.updatedAt))).toISOString();
  }

  private indexTicket(t: Ticket): void {
    const list = this.ticketsByCustomer?.get(t.customerId);
    if (list) list.push(t);
    else this.ticketsByCustomer?.set(t.customerId, [t]);
  }

  private comments(ticketId: string): Comment[] {
    let list = this.commentsByTicket.get(ticketId);
    if (list === undefined) {
      const index = seqOf(ticketId, "tkt_") - 1;
      list = index < this.generatedTickets ? this.conversation(index) : [];
      this.commentsByTicket.set(ticketId, list);
    }
    return list;
  }
}

/** "tkt_000123" → 123; 0 when the id does not have the prefix or a number after it. */
function seqOf(id: string, prefix: string): number {
  if (!id.startsWith(prefix)) return 0;
  const n = Number(id.slice(prefix.length));
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

export function createStore(options: GenerateOptions = {}): DemoStore {
  return new DemoStore(generateDataset(options));
}

let shared: DemoStore | undefined;

/** This isolate's store: generated on first use (not at startup), then reused by every request. */
export function sharedStore(): DemoStore {
  shared ??= createStore();
  return shared;
}
