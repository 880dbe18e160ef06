import type { SessionRecord } from "../../../durable-objects/session/record";
import type { SessionObject } from "../../../durable-objects/session/session-object";
import type { SessionAnswer, SessionCall, SessionQuota } from "../../../shared/contract/session";
import type { GatewayEnv } from "../env";
import { GatewayError } from "../errors";

/** Session ids are UUIDs; anything else is not looked up at all. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type SessionKind = NonNullable<SessionRecord["kind"]>;

export function sessionStub(env: GatewayEnv, id: string): DurableObjectStub<SessionObject> {
  return env.SESSIONS.get(env.SESSIONS.idFromName(id));
}

export function isSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

/** Opens a new session of `team` and returns its record. */
export async function createSession(
  env: GatewayEnv,
  init: { team: string; ttlSeconds: number; kind: SessionKind } & Partial<SessionRecord>,
): Promise<SessionRecord> {
  const now = Date.now();
  const record: SessionRecord = { id: crypto.randomUUID(), createdAt: now, lastSeenAt: now, ...init };
  await sessionStub(env, record.id).open(record);
  return record;
}

/** The live session `id` of `team` (marked used), or null: unknown, ended, expired or another team's. */
export async function findSession(env: GatewayEnv, id: string, team: string): Promise<SessionRecord | null> {
  if (!isSessionId(id)) return null;
  const record = await sessionStub(env, id).touch();
  return record && record.team === team ? record : null;
}

/** Ends the session and deletes everything in it; false when `team` has no such live session. */
export async function endSession(env: GatewayEnv, id: string, team: string): Promise<boolean> {
  if (!(await findSession(env, id, team))) return false;
  return sessionStub(env, id).close();
}

/**
 * One SessionCall on session `id` for `team`. (The RPC stub's typing drops the `value: unknown`
 * branch of SessionAnswer, so the answer is retyped here, once.)
 */
export async function callSession(
  env: GatewayEnv,
  id: string,
  team: string,
  call: SessionCall,
  quota: SessionQuota,
): Promise<SessionAnswer> {
  return (await sessionStub(env, id).call(team, call, quota)) as SessionAnswer;
}

/** The same answer for unknown, ended, expired and other teams' sessions: nothing to tell apart. */
export function sessionNotFound(detail = "it was never opened, was deleted or expired"): GatewayError {
  return new GatewayError("session_not_found", `Session not found: ${detail}`);
}
