import { TeamLimits } from "./team-limits";

export { type Admission, type AdmitAsk, type TakeResult, WRITE_BEHIND_MS } from "./team-limits";

/**
 * A team's rate limits (team-limits.ts) in an object of their own: the gateway's limiter when it has
 * no AUDIT binding (workers/gateway/admission/limiter.ts); with one, the team's `AuditLog` keeps them.
 */
export class RateLimiter extends TeamLimits {}
