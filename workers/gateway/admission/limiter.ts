import type { RateLimiter } from "../../../durable-objects/limiter/rate-limiter";
import type { TeamLimits } from "../../../durable-objects/limiter/team-limits";
import { auditLogOf, auditNamespace } from "../audit/store";
import type { Config } from "../config";
import type { GatewayEnv } from "../env";

/** A lease outlives a lost release by at most this much past the execution's own limit. */
const LEASE_GRACE_MS = 10_000;

/**
 * The team's limiter object, which keeps its keys' buckets of credits and its execution leases: the
 * team's audit log (so that an ended execution's lease goes back in the call that appends its audit
 * entries, audit/record.ts), or without an AUDIT binding a `RateLimiter` of its own.
 */
export function limiter(env: GatewayEnv, team: string): DurableObjectStub<TeamLimits> {
  const audit = auditNamespace(env);
  if (audit) return auditLogOf(audit, team);
  const ns = env.RATE_LIMITER as unknown as DurableObjectNamespace<RateLimiter>;
  return ns.get(ns.idFromName(`team:${team}`));
}

/** What a lease asks for: the team's cap, and a life of the longest execution plus a grace. */
export function leaseTerms(config: Config): { max: number; ttlMs: number } {
  return { max: config.rateLimit.maxConcurrent, ttlMs: config.limits.maxTimeoutMs + LEASE_GRACE_MS };
}
