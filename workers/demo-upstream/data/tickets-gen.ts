import type { Agent, Customer, Priority, Team, Ticket, TicketStatus } from "../schemas";
import { activitySummary, conversationRandom } from "./comments-gen";
import { emailSlug } from "./people-gen";
import { type Random, Weighted } from "./random";
import { DAY_MS, HOUR_MS, isoTime } from "./time";
import { BROWSERS, DEVICES, EXTRA_TAGS, FEATURES, FOLLOW_UPS, INTEGRATIONS, MONTHS, TOPICS } from "./topics";

const TICKET_WINDOW_MS = 365 * DAY_MS;

const PRIORITY: Record<"enterprise" | "other", Weighted<Priority>> = {
  enterprise: Weighted.of({ low: 10, normal: 40, high: 33, urgent: 17 }),
  other: Weighted.of({ low: 22, normal: 52, high: 19, urgent: 7 }),
};

/** Younger tickets are still open; old ones are mostly closed. */
const NEW = Weighted.of<TicketStatus>({ open: 60, pending: 30, resolved: 10, closed: 0 });
const RECENT = Weighted.of<TicketStatus>({ open: 25, pending: 25, resolved: 40, closed: 10 });
const OLD = Weighted.of<TicketStatus>({ open: 4, pending: 6, resolved: 20, closed: 70 });
const statusMix = (ageDays: number) => (ageDays < 3 ? NEW : ageDays < 14 ? RECENT : OLD);

const TOPIC_MIX = new Weighted(TOPICS, (t) => t.weight);

/** A resolver for a ticket's {placeholders}: each value is drawn once, so subject and body agree. */
function placeholders(rng: Random, customer: Customer): (key: string) => string {
  const drawn: Record<string, string> = {};
  const draw = (key: string): string => {
    switch (key) {
      case "feature":
        return rng.pick(FEATURES);
      case "integration":
        return rng.pick(INTEGRATIONS);
      case "browser":
        return rng.pick(BROWSERS);
      case "device":
        return rng.pick(DEVICES);
      case "month":
        return rng.pick(MONTHS);
      case "error":
        return `E${rng.int(1000, 9999)}`;
      case "invoice":
        return `INV-${rng.int(10000, 99999)}`;
      case "n":
        return String(rng.int(2, 9));
      case "n2":
        return String(rng.int(1, 2));
      case "plan":
        return customer.plan;
      default:
        return `{${key}}`;
    }
  };
  return (key) => {
    drawn[key] ??= draw(key);
    return drawn[key];
  };
}

/** A template split at its placeholders: even indexes are text, odd ones placeholder names. */
type Template = readonly string[];
const templates = new Map<string, Template>();

/** The template with its placeholders replaced, plus `suffix`; one flat string (see isoTime). */
function fill(template: string, value: (key: string) => string, suffix = ""): string {
  let parts = templates.get(template);
  if (parts === undefined) {
    parts = template.split(/\{(\w+)\}/);
    templates.set(template, parts);
  }
  if (parts.length === 1 && suffix === "") return template;
  const out = parts.map((part, i) => (i % 2 === 0 ? part : value(part)));
  out.push(suffix);
  return out.join("");
}

/** Creation times, uniform over the year before now, ascending. */
function creationTimes(rng: Random, count: number, nowMs: number): Float64Array {
  const start = nowMs - TICKET_WINDOW_MS;
  const at = new Float64Array(count);
  for (let i = 0; i < count; i++) at[i] = start + Math.floor(rng.float() * (TICKET_WINDOW_MS - HOUR_MS));
  return at.sort();
}

export interface GeneratedTickets {
  /** Oldest first: "tkt_000001" is the oldest. */
  tickets: Ticket[];
  /** For ticket i, the number of its first comment (comments are numbered in ticket order). */
  firstCommentSeq: Uint32Array;
  commentTotal: number;
}

/** Tickets, with comment counts and times from each ticket's own PRNG (see comments-gen.ts). */
export function generateTickets(
  rng: Random,
  seed: number,
  customers: readonly Customer[],
  agents: readonly Agent[],
  count: number,
  nowMs: number,
): GeneratedTickets {
  const byTeam = new Map<Team, Agent[]>();
  for (const agent of agents) byTeam.set(agent.team, [...(byTeam.get(agent.team) ?? []), agent]);
  const agentFor = (team: Team): Agent => rng.pick(rng.chance(0.85) ? (byTeam.get(team) ?? agents) : agents);

  const tickets: Ticket[] = [];
  const firstCommentSeq = new Uint32Array(count);
  let commentTotal = 0;
  const times = creationTimes(rng, count, nowMs);
  const signups = customers.map((c) => Date.parse(c.createdAt));
  let signedUp = 0; // customers (oldest first) who had signed up by the current ticket's time
  for (let i = 0; i < count; i++) {
    const at = times[i]!;
    while (signedUp < customers.length && signups[signedUp]! <= at) signedUp++;
    // Any customer who had signed up, skewed towards long-standing ones, who write in more often.
    const customer = customers[Math.floor(Math.max(signedUp, 1) * rng.float() ** 1.4)]!;
    const topic = TOPIC_MIX.pick(rng);
    const [subject, body] = rng.pick(topic.cases);
    const value = placeholders(rng, customer);
    const followUp = rng.chance(0.5) ? ` ${rng.pick(FOLLOW_UPS)}` : "";
    const ageDays = (nowMs - at) / DAY_MS;
    const status = statusMix(ageDays).pick(rng);
    const priority = PRIORITY[customer.plan === "enterprise" ? "enterprise" : "other"].pick(rng);
    const tags = [...topic.tags];
    if (topic.tags.includes("integration")) tags.push(emailSlug(value("integration")));
    if (customer.plan === "enterprise" && rng.chance(0.6)) tags.push("vip");
    if (priority === "urgent" && rng.chance(0.5)) tags.push("escalated");
    if (rng.chance(0.08)) tags.push(rng.pick(EXTRA_TAGS));
    const assignee = status === "open" && rng.chance(0.3) ? null : agentFor(topic.team).name;
    const activity = activitySummary(conversationRandom(seed, i + 1), {
      status,
      assigned: assignee !== null,
      at,
      nowMs,
    });
    firstCommentSeq[i] = commentTotal + 1;
    commentTotal += activity.count;
    tickets.push({
      id: `tkt_${String(i + 1).padStart(6, "0")}`,
      customerId: customer.id,
      subject: fill(subject, value),
      body: fill(body, value, followUp),
      status,
      priority,
      tags,
      assignee,
      commentCount: activity.count,
      createdAt: isoTime(at),
      // Last touched by the final comment, or when opened if there is none.
      updatedAt: isoTime(activity.last),
    });
  }
  return { tickets, firstCommentSeq, commentTotal };
}
