import { log } from "../../../shared/log";
import { appendWithLeases } from "../audit/record";
import type { Config } from "../config";
import type { GatewayEnv } from "../env";
import { type PhaseClock, timed } from "../timing/clock";
import { TeamQueues } from "../write-behind/team-queues";
import { leaseTerms, limiter } from "./limiter";

/**
 * A finished execution's lease goes back to the team's limiter with this isolate's next call to it
 * (the next request's admit), or after this long when none comes, together with the team's queued
 * audit entries (the limiter is the team's audit log: limiter.ts): one Durable Object call fewer per
 * execution either way. Holding a lease a little longer can only refuse an execution early, never
 * admit one too many.
 */
export const RELEASE_WINDOW_MS = 20;

/** Per-isolate state: per team, leases of ended executions that this isolate has not yet returned. */
const pending = new TeamQueues<string>(RELEASE_WINDOW_MS, Number.POSITIVE_INFINITY);

/**
 * A lease of its own for an execution that admission did not take one for (an execute inside a
 * JSON-RPC batch, or one the SDK answers): a lease id, or null when every lease of the team is held.
 */
export function acquireLease(
  env: GatewayEnv,
  team: string,
  config: Config,
  clock: PhaseClock | undefined,
): Promise<string | null> {
  const { max, ttlMs } = leaseTerms(config);
  return Promise.resolve(timed(clock, "slot", () => limiter(env, team).acquire(max, ttlMs), false));
}

/** Queues `lease` for return (with the team's next admit, or on its own after the window). */
export function releaseLease(
  env: GatewayEnv,
  team: string,
  lease: string,
  waitUntil: (promise: Promise<unknown>) => void,
): void {
  const flush = pending.add(team, lease, (leases) => returnLeases(env, team, leases));
  if (flush) waitUntil(flush);
}

/** The team's queued leases, now the caller's to send (with its admit); [] when none. */
export function takeReleases(team: string): string[] {
  return pending.take(team);
}

/** Leases whose sending failed: queued again (returning a lease twice is harmless). */
export function requeueReleases(
  env: GatewayEnv,
  team: string,
  leases: string[],
  waitUntil: (promise: Promise<unknown>) => void,
): void {
  for (const lease of leases) releaseLease(env, team, lease, waitUntil);
}

async function returnLeases(env: GatewayEnv, team: string, leases: string[]): Promise<void> {
  try {
    if (!(await appendWithLeases(env, team, leases))) await limiter(env, team).release(leases);
  } catch (err) {
    // The leases expire on their own (leaseTerms: the longest execution plus a grace).
    log("warn", "execution leases not returned", {
      team,
      leases: leases.length,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
