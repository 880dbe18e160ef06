import { log } from "../../../shared/log";
import type { GatewayEnv } from "../env";
import { limiter } from "./limiter";

/**
 * A finished execution's lease goes back to the team's limiter with this isolate's next call to it
 * (the next request's admit), or after this long when none comes: one Durable Object call fewer per
 * execution under load. Holding a lease a little longer can only refuse an execution early, never
 * admit one too many.
 */
export const RELEASE_WINDOW_MS = 20;

/** Per team: leases of ended executions that this isolate has not yet returned. */
const pending = new Map<string, string[]>();

/** Queues `lease` for return; the first lease of a window also arms that window's flush. */
export function releaseLease(
  env: GatewayEnv,
  team: string,
  lease: string,
  waitUntil: (promise: Promise<unknown>) => void,
): void {
  const queued = pending.get(team);
  if (queued) {
    queued.push(lease);
    return;
  }
  pending.set(team, [lease]);
  waitUntil(flushLater(env, team));
}

/** The team's queued leases, now the caller's to send (with its admit); [] when none. */
export function takeReleases(team: string): string[] {
  const queued = pending.get(team) ?? [];
  pending.delete(team);
  return queued;
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

async function flushLater(env: GatewayEnv, team: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, RELEASE_WINDOW_MS));
  const leases = takeReleases(team);
  if (leases.length === 0) return;
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
