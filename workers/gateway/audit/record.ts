import type { AuditLog } from "../../../durable-objects/audit/audit-log";
import type { AuditEntry } from "../../../durable-objects/audit/entry";
import { log } from "../../../shared/log";
import { TeamQueues } from "../write-behind/team-queues";
import { auditLogOf, auditNamespace, retentionDays } from "./store";

/**
 * Entries (from any request in this isolate) share one write until a window passes without a new
 * one, for at most QUEUE_MAX_AGE_MS: a Durable Object call and its transaction cost about the same
 * CPU whatever they carry, so under steady load one write a second replaces one per window, while a
 * lone entry still goes after one window (docs/bench-log.md).
 */
const QUEUE_WINDOW_MS = 100;
export const QUEUE_MAX_AGE_MS = 1_000;
const QUEUE_MAX_ENTRIES = 500;

/** Per-isolate state: per team, entries of this isolate not yet written. */
const queues = new TeamQueues<AuditEntry>(QUEUE_WINDOW_MS, QUEUE_MAX_ENTRIES, QUEUE_MAX_AGE_MS);

/**
 * Appends audit entries in the background: the work (including `entries()` when it is a function)
 * goes to `waitUntil` and is never awaited on the request path. Entries wait in a queue per team for a
 * few ms (one Durable Object call, one SQLite transaction). A failure is logged, never thrown.
 * Without an AUDIT binding nothing is written (and `entries()` is not called).
 */
export function recordAudit(
  env: object,
  waitUntil: (promise: Promise<unknown>) => void,
  entries: AuditEntry[] | (() => Promise<AuditEntry[]>),
): void {
  try {
    const ns = auditNamespace(env);
    if (!ns) return;
    const days = retentionDays(env);
    waitUntil(
      (typeof entries === "function" ? entries() : Promise.resolve(entries))
        .then((list) => Promise.all(enqueue(ns, days, list)))
        .catch((err) => log("error", "audit entries lost", { error: describe(err) })),
    );
  } catch (err) {
    log("error", "audit entries lost", { error: describe(err) });
  }
}

/**
 * Writes the team's entries that this isolate has not sent yet, now: a read that must see this
 * isolate's own executions (session.history) calls it first.
 */
export async function flushAudit(env: object, team: string): Promise<void> {
  const ns = auditNamespace(env);
  if (!ns) return;
  const queued = queues.take(team);
  if (queued.length > 0) await send(ns, retentionDays(env), team)(queued);
}

/**
 * Returns `leases` to the team's audit log (which keeps its rate limits: admission/limiter.ts) in one
 * call with the entries this isolate has queued for the team, which then go at once; false (nothing
 * sent) without an AUDIT binding. A failure is logged, never thrown: the leases expire on their own.
 */
export async function appendWithLeases(env: object, team: string, leases: string[]): Promise<boolean> {
  const ns = auditNamespace(env);
  if (!ns) return false;
  await send(ns, retentionDays(env), team, leases)(queues.take(team));
  return true;
}

/** Adds entries to their team's open queue, or opens one; returns the sends of the queues it opened. */
function enqueue(ns: DurableObjectNamespace<AuditLog>, days: number, entries: AuditEntry[]): Promise<void>[] {
  return entries.flatMap((entry) => queues.add(entry.team, entry, send(ns, days, entry.team)) ?? []);
}

/** What sends a team's entries (and `leases` to return with them); it logs a failure, never throws. */
function send(ns: DurableObjectNamespace<AuditLog>, days: number, team: string, leases: string[] = []) {
  return async (entries: AuditEntry[]): Promise<void> => {
    try {
      await auditLogOf(ns, team).append(entries, days, leases);
    } catch (err) {
      const counts =
        leases.length > 0 ? { entries: entries.length, leases: leases.length } : { entries: entries.length };
      log("error", "audit write failed", { team, ...counts, error: describe(err) });
    }
  };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
