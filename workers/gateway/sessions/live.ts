import type { SessionRecord } from "../../../durable-objects/session/record";
import type { GatewayEnv } from "../env";
import { findSession } from "./store";

/** How long this isolate trusts a session check (README "Limits": what this can make stale). */
export const SESSION_CHECK_MS = 5_000;
const MAX_REMEMBERED = 1_000;

/** Per-isolate state: session id → the live record this isolate last saw for it, and when. */
const checked = new Map<string, { at: number; record: SessionRecord }>();

/**
 * `findSession`, answered from this isolate's last check of the same session by the same team when
 * that check is under SESSION_CHECK_MS old and the session's idle time has not run out since. A
 * session ended through this isolate is forgotten at once; one ended through another isolate can
 * pass this check for up to SESSION_CHECK_MS, and then every call on it is still refused by its
 * object (which creates nothing for an ended session).
 */
export async function liveSession(env: GatewayEnv, id: string, team: string): Promise<SessionRecord | null> {
  const now = Date.now();
  const hit = checked.get(id);
  if (hit && hit.record.team === team && now - hit.at < SESSION_CHECK_MS && !idleOut(hit.record, now)) {
    return hit.record;
  }
  const record = await findSession(env, id, team);
  checked.delete(id);
  if (record) {
    if (checked.size >= MAX_REMEMBERED) checked.delete(checked.keys().next().value as string);
    checked.set(id, { at: now, record });
  }
  return record;
}

/** Drops what this isolate remembers of a session (it was ended here). */
export function forgetSession(id: string): void {
  checked.delete(id);
}

function idleOut(record: SessionRecord, now: number): boolean {
  return now - record.lastSeenAt > record.ttlSeconds * 1000;
}
