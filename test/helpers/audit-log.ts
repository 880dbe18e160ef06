// Entries and object access shared by the audit log's unit tests (audit-log, audit-usage).
import { env, runInDurableObject } from "cloudflare:test";
import type { AuditEntry } from "../../workers/gateway/audit";
import { auditLogOf, auditNamespace } from "../../workers/gateway/audit";

export const DAY = 86_400_000;
/** a history entry's time: ISO text (shared/contract/time.ts) */
export const iso = (ms: number) => new Date(ms).toISOString();
export const log = (team: string) => auditLogOf(auditNamespace(env)!, team);

let n = 0;
export const entry = (team: string, over: Partial<AuditEntry> = {}): AuditEntry => ({
  ts: Date.now(),
  requestId: `req-${++n}`,
  team,
  keyId: "key-1",
  kind: "tool_call",
  tool: "demo.list_tickets",
  argsSha256: "0".repeat(64),
  status: "ok",
  durationMs: 5,
  resultBytes: 10,
  ...over,
});

export const rowCount = (team: string) =>
  runInDurableObject(
    log(team),
    (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM entries").one().n,
  );

/** A call's error message ("resolved" when it did not fail). */
export const failure = (call: Promise<unknown>) =>
  call.then(
    () => "resolved",
    (e: unknown) => String(e),
  );
