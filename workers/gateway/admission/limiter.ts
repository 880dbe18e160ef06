import type { RateLimiter } from "../../../durable-objects/limiter/rate-limiter";
import type { Config } from "../config";
import type { GatewayEnv } from "../env";

/** A lease outlives a lost release by at most this much past the execution's own limit. */
const LEASE_GRACE_MS = 10_000;

/** The team's limiter object: its keys' buckets of credits and its execution leases. */
export function limiter(env: GatewayEnv, team: string): DurableObjectStub<RateLimiter> {
  const ns = env.RATE_LIMITER as unknown as DurableObjectNamespace<RateLimiter>;
  return ns.get(ns.idFromName(`team:${team}`));
}

/** What a lease asks for: the team's cap, and a life of the longest execution plus a grace. */
export function leaseTerms(config: Config): { max: number; ttlMs: number } {
  return { max: config.rateLimit.maxConcurrent, ttlMs: config.limits.maxTimeoutMs + LEASE_GRACE_MS };
}
