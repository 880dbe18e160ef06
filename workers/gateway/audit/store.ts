import type { AuditLog } from "../../../durable-objects/audit/audit-log";
import { RETENTION_DEFAULT_DAYS, RETENTION_MAX_DAYS } from "../../../durable-objects/audit/entry";
import { log } from "../../../shared/log";

type AuditNamespace = DurableObjectNamespace<AuditLog>;

/** What of the env the audit log uses; AUDIT / AUDIT_RETENTION_DAYS may be absent (nothing is audited). */
interface AuditBindings {
  AUDIT?: AuditNamespace;
  AUDIT_RETENTION_DAYS?: string;
}

/** Per-isolate state: whether this isolate has logged the missing AUDIT binding (once). */
let warnedMissing = false;

/** The AUDIT namespace, or undefined (logged once) when the binding is not configured. */
export function auditNamespace(env: object): AuditNamespace | undefined {
  const ns = (env as AuditBindings).AUDIT;
  if (!ns && !warnedMissing) {
    warnedMissing = true;
    log("warn", "audit log disabled: no AUDIT Durable Object binding");
  }
  return ns;
}

/** The team's audit log object. */
export function auditLogOf(ns: AuditNamespace, team: string): DurableObjectStub<AuditLog> {
  return ns.get(ns.idFromName(team));
}

/** AUDIT_RETENTION_DAYS: a whole number of days from 1 to 3650; unset or invalid → 30. */
export function retentionDays(env: object): number {
  const raw = (env as AuditBindings).AUDIT_RETENTION_DAYS;
  const days = raw === undefined || raw.trim() === "" ? Number.NaN : Number(raw.trim());
  return Number.isInteger(days) && days >= 1 && days <= RETENTION_MAX_DAYS ? days : RETENTION_DEFAULT_DAYS;
}
