import { log } from "../../../shared/log";
import { type Carried, queueLease, requeue, takeCarried, takeLeases } from "../audit/record";
import type { Config } from "../config";
import type { GatewayEnv } from "../env";
import { type PhaseClock, timed } from "../timing/clock";
import { TeamQueues } from "../write-behind/team-queues";
import { leaseTerms, limiter } from "./limiter";

/**
 * Without an AUDIT binding (the team's limits in a `RateLimiter` of their own), a finished
 * execution's lease goes back with this isolate's next call to it (the next request's admit), or
 * after this long when none comes. With one, it waits with the team's audit entries instead
 * (audit/record.ts). Holding a lease a little longer can only refuse an execution early, never admit
 * one too many.
 */
export const RELEASE_WINDOW_MS = 20;

/** Per-isolate state: per team, leases of ended executions not yet returned to a `RateLimiter`. */
const pending = new TeamQueues<string>(RELEASE_WINDOW_MS, Number.POSITIVE_INFINITY);

/**
 * A lease of its own for an execution that admission did not take one for (an execute inside a
 * JSON-RPC batch, or one the SDK answers): a lease id, or null when every lease of the team is held.
 * This isolate's ended executions' leases go back first, in the same call.
 */
export async function acquireLease(
  env: GatewayEnv,
  team: string,
  config: Config,
  clock: PhaseClock | undefined,
  waitUntil: (promise: Promise<unknown>) => void,
): Promise<string | null> {
  const { max, ttlMs } = leaseTerms(config);
  const released = takeReleases(team);
  try {
    return await timed(clock, "slot", () => limiter(env, team).acquire(max, ttlMs, released), false);
  } catch (err) {
    requeueReleases(env, team, released, waitUntil);
    throw err;
  }
}

/** Queues `lease` for return (with the team's next admit, or on its own after the window). */
export function releaseLease(
  env: GatewayEnv,
  team: string,
  lease: string,
  waitUntil: (promise: Promise<unknown>) => void,
): void {
  if (queueLease(env, team, lease, waitUntil)) return;
  const flush = pending.add(team, lease, (leases) => returnLeases(env, team, leases));
  if (flush) waitUntil(flush);
}

/** The team's queued leases, now the caller's to send (with its call); [] when none. */
function takeReleases(team: string): string[] {
  return [...pending.take(team), ...takeLeases(team)];
}

/** What the team's next admit carries: this isolate's returned leases and its quiet audit entries. */
export function takeForAdmit(env: GatewayEnv, team: string): Carried {
  const carried = takeCarried(env, team);
  return { ...carried, released: [...pending.take(team), ...carried.released] };
}

/** What a failed call carried, queued again (its audit batches are written once however often sent). */
export function giveBack(
  env: GatewayEnv,
  team: string,
  carried: Carried,
  waitUntil: (promise: Promise<unknown>) => void,
): void {
  requeueReleases(env, team, carried.released, waitUntil);
  requeue(env, team, { ...carried, released: [] }, waitUntil);
}

/** Leases whose sending failed: queued again (returning a lease twice is harmless). */
function requeueReleases(
  env: GatewayEnv,
  team: string,
  leases: string[],
  waitUntil: (promise: Promise<unknown>) => void,
): void {
  for (const lease of leases) releaseLease(env, team, lease, waitUntil);
}

async function returnLeases(env: GatewayEnv, team: string, leases: string[]): Promise<void> {
  try {
    await limiter(env, team).release(leases);
  } catch (err) {
    // The leases expire on their own (leaseTerms: the longest execution plus a grace).
    log("warn", "execution leases not returned", {
      team,
      leases: leases.length,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
