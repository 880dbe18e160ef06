import type { AuditBatch, AuditEntry, CarriedAudit } from "../../../durable-objects/audit/entry";
import { log } from "../../../shared/log";
import { TeamQueues } from "../write-behind/team-queues";
import { auditLogOf, auditNamespace, retentionDays } from "./store";

/**
 * What this isolate owes a team's audit log (which keeps the team's limits: admission/limiter.ts):
 * its audit entries, and the leases of its ended executions. Both wait here to go with the team's
 * next admit from this isolate (admission/admit.ts: one Durable Object request per execution for an
 * agent that sends one at a time), or on their own, together, QUEUE_MAX_AGE_MS after the first of
 * them (the request that queued it keeps its `waitUntil` open until then). An admit takes the
 * entries only once ENTRIES_QUIET_MS passed without a new one, so under steady load they still go once a
 * second instead of with every admit (a Durable Object call and its transaction cost about the same
 * CPU whatever they carry: docs/bench-log.md). A held lease can only refuse an execution of another
 * isolate early, never admit one too many.
 */
export const QUEUE_MAX_AGE_MS = 1_000;
const ENTRIES_QUIET_MS = 100;
const QUEUE_MAX_ENTRIES = 500;
/** Sends of one batch before its entries are given up (logged). */
const MAX_SENDS = 3;

/** A batch whose send failed, queued again as it was (same id: written once however often it is sent). */
interface Resend {
  batch: AuditBatch;
  sends: number;
}
type Queued = AuditEntry | Resend;

/** Per-isolate state: per team, entries (and batches to send again) and returned leases not yet sent. */
const entries = new TeamQueues<Queued>(QUEUE_MAX_AGE_MS, QUEUE_MAX_ENTRIES);
const leases = new TeamQueues<string>(QUEUE_MAX_AGE_MS, Number.POSITIVE_INFINITY);

/** What a call to the team's audit log carries besides its own work. */
export interface Carried {
  released: string[];
  audit?: CarriedAudit;
  /** how often each batch was sent before */
  sends: number[];
}

type WaitUntil = (promise: Promise<unknown>) => void;

/**
 * Appends audit entries in the background: the work (including `entries()` when it is a function)
 * goes to `waitUntil` and is never awaited on the request path. A failure is logged, never thrown.
 * Without an AUDIT binding nothing is written (and `entries()` is not called).
 */
export function recordAudit(
  env: object,
  waitUntil: WaitUntil,
  made: AuditEntry[] | (() => Promise<AuditEntry[]>),
): void {
  try {
    if (!auditNamespace(env)) return;
    waitUntil(
      (typeof made === "function" ? made() : Promise.resolve(made))
        .then((list) =>
          Promise.all(list.map((e) => entries.add(e.team, e, flushEntries(env, e.team, waitUntil)))),
        )
        .catch((err) => log("error", "audit entries lost", { error: describe(err) })),
    );
  } catch (err) {
    log("error", "audit entries lost", { error: describe(err) });
  }
}

/** Queues an ended execution's lease for its team's audit log; false without an AUDIT binding. */
export function queueLease(env: object, team: string, lease: string, waitUntil: WaitUntil): boolean {
  if (!auditNamespace(env)) return false;
  const opened = leases.add(team, lease, async (released) =>
    send(env, team, carriedOf(env, released, entries.take(team)), waitUntil),
  );
  if (opened) waitUntil(opened);
  return true;
}

/** The team's queued leases, now the caller's to return; [] when none. */
export function takeLeases(team: string): string[] {
  return leases.take(team);
}

/**
 * What an admit of `team` carries: its queued leases, and its entries once they have been quiet for
 * ENTRIES_QUIET_MS (`quietMs`); now the caller's to send, or to give back with `requeue`.
 */
export function takeCarried(env: object, team: string, quietMs = ENTRIES_QUIET_MS): Carried {
  return carriedOf(env, leases.take(team), entries.take(team, quietMs));
}

function carriedOf(env: object, released: string[], queued: Queued[]): Carried {
  if (queued.length === 0) return { released, sends: [] };
  const resent = queued.filter((q): q is Resend => "batch" in q);
  const fresh = queued.filter((q): q is AuditEntry => !("batch" in q));
  const batches = [...resent.map((r) => r.batch)];
  if (fresh.length > 0) batches.push({ id: crypto.randomUUID(), entries: fresh });
  return {
    released,
    audit: { batches, retentionDays: retentionDays(env) },
    sends: [...resent.map((r) => r.sends), ...(fresh.length > 0 ? [0] : [])],
  };
}

/**
 * What a failed call carried, queued again: the leases (returning one twice is harmless) and the
 * batches (written once by id), each given up after MAX_SENDS sends.
 */
export function requeue(env: object, team: string, carried: Carried, waitUntil: WaitUntil): void {
  for (const lease of carried.released) queueLease(env, team, lease, waitUntil);
  carried.audit?.batches.forEach((batch, i) => {
    const sends = (carried.sends[i] ?? 0) + 1;
    if (sends >= MAX_SENDS) {
      log("error", "audit entries lost", { team, entries: batch.entries.length, sends });
      return;
    }
    const opened = entries.add(team, { batch, sends }, flushEntries(env, team, waitUntil));
    if (opened) waitUntil(opened);
  });
}

/**
 * Writes what this isolate owes the team's audit log, now: a read that must see this isolate's own
 * executions (GET /v1/audit, session.history) calls it first.
 */
export async function flushAudit(env: object, team: string, waitUntil: WaitUntil): Promise<void> {
  await send(env, team, takeCarried(env, team, 0), waitUntil);
}

/** What the entry queue's timer runs: its entries, with the team's queued leases. */
function flushEntries(env: object, team: string, waitUntil: WaitUntil) {
  return async (queued: Queued[]): Promise<void> =>
    send(env, team, carriedOf(env, leases.take(team), queued), waitUntil);
}

/** One `append` per batch (the leases with the first); a failure is logged and what failed queued again. */
async function send(env: object, team: string, carried: Carried, waitUntil: WaitUntil): Promise<void> {
  const ns = auditNamespace(env);
  if (!ns) return;
  const stub = auditLogOf(ns, team);
  const batches = carried.audit?.batches ?? [];
  const days = carried.audit?.retentionDays ?? retentionDays(env);
  let failed = 0;
  try {
    if (batches.length === 0 && carried.released.length > 0) await stub.append([], days, carried.released);
    for (const [i, batch] of batches.entries()) {
      failed = i;
      await stub.append(batch.entries, days, i === 0 ? carried.released : [], batch.id);
    }
  } catch (err) {
    log("error", "audit write failed", {
      team,
      entries: batches.slice(failed).reduce((n, b) => n + b.entries.length, 0),
      leases: carried.released.length,
      error: describe(err),
    });
    const audit = carried.audit && { ...carried.audit, batches: batches.slice(failed) };
    const sends = carried.sends.slice(failed);
    requeue(env, team, { released: carried.released, sends, ...(audit ? { audit } : {}) }, waitUntil);
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
