import type { HistoryEntry } from "../../../shared/contract/session";
import { flushAudit } from "./record";
import { auditLogOf, auditNamespace } from "./store";

/**
 * Session `sessionId`'s executions as its history (contract `session.history()`), read from the
 * team's audit log, which records every execution anyway; [] without an AUDIT binding. The caller
 * checks first that the session is `team`'s and live. This isolate's unsent entries for the team are
 * written first, so a session sees its own earlier executions when they ran through this isolate;
 * through another isolate, once its queue is written (record.ts: at most QUEUE_MAX_AGE_MS, or with
 * that isolate's next admit).
 */
export async function sessionHistory(
  env: object,
  team: string,
  sessionId: string,
  waitUntil: (promise: Promise<unknown>) => void,
): Promise<HistoryEntry[]> {
  const ns = auditNamespace(env);
  if (!ns) return [];
  await flushAudit(env, team, waitUntil);
  return auditLogOf(ns, team).history(sessionId);
}
