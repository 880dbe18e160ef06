import type { AuditLog } from "../../../durable-objects/audit/audit-log";
import type { AuditEntry } from "../../../durable-objects/audit/entry";
import { log } from "../../../shared/log";
import { auditLogOf, auditNamespace, retentionDays } from "./store";

/** Entries arriving within this window (from any request in this isolate) share one write. */
const BATCH_WINDOW_MS = 25;
const MAX_BATCH = 500;

/** Per team: the batch still open for more entries in this isolate. */
const open = new Map<string, AuditEntry[]>();

/**
 * Appends audit entries in the background: the work (including `entries()` when it is a function)
 * goes to `waitUntil` and is never awaited on the request path. Entries are batched per team for a
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
 * Adds entries to their team's open batch, or opens one. Returns the flushes this call opened: a
 * batch is flushed by the context that opened it, so it never depends on another request's I/O.
 */
function enqueue(ns: DurableObjectNamespace<AuditLog>, days: number, entries: AuditEntry[]): Promise<void>[] {
  const flushes: Promise<void>[] = [];
  for (const entry of entries) {
    const batch = open.get(entry.team);
    if (batch && batch.length < MAX_BATCH) {
      batch.push(entry);
      continue;
    }
    const fresh = [entry];
    open.set(entry.team, fresh);
    flushes.push(flushLater(ns, days, entry.team, fresh));
  }
  return flushes;
}

async function flushLater(
  ns: DurableObjectNamespace<AuditLog>,
  days: number,
  team: string,
  batch: AuditEntry[],
): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, BATCH_WINDOW_MS));
  if (open.get(team) === batch) open.delete(team);
  try {
    await auditLogOf(ns, team).append(batch, days);
  } catch (err) {
    log("error", "audit write failed", { team, entries: batch.length, error: describe(err) });
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
