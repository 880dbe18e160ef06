// Helpers for the session object's storage tests (session-storage, session-lifecycle): one
// session per test, calls answered as SessionAnswer, and the SQL tables the object created.
import { env, runInDurableObject } from "cloudflare:test";
import type { SessionRecord } from "../../durable-objects/session/record";
import type { SessionAnswer, SessionCall, SessionInfo, SessionQuota } from "../../shared/contract/session";

export const QUOTA: SessionQuota = { quotaBytes: 64 * 1024 * 1024, maxFiles: 100 };

export const record = (id: string, over: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  createdAt: Date.now(),
  lastSeenAt: Date.now(),
  ttlSeconds: 60,
  team: "default",
  ...over,
});

export const stubFor = (id: string) => env.SESSIONS.get(env.SESSIONS.idFromName(id));

export async function openSession(over: Partial<SessionRecord> = {}) {
  const id = `storage-${crypto.randomUUID()}`;
  const stub = stubFor(id);
  await stub.open(record(id, over));
  return { id, stub };
}

export type Stub = ReturnType<typeof stubFor>;

export async function run(
  stub: Stub,
  call: SessionCall,
  quota = QUOTA,
  team = "default",
): Promise<SessionAnswer> {
  return (await stub.call(team, call, quota)) as SessionAnswer;
}

export async function value<T>(stub: Stub, call: SessionCall, quota = QUOTA): Promise<T> {
  const answer = await run(stub, call, quota);
  if (!answer.ok) throw new Error(`${call.op} failed: ${answer.error.name}: ${answer.error.message}`);
  return answer.value as T;
}

export async function failure(stub: Stub, call: SessionCall, quota = QUOTA, team = "default") {
  const answer = await run(stub, call, quota, team);
  if (answer.ok) throw new Error(`${call.op} succeeded: ${JSON.stringify(answer.value)}`);
  return answer.error;
}

export const bytes = (text: string) => new Uint8Array(new TextEncoder().encode(text));
export const text = (data: Uint8Array) => new TextDecoder().decode(data);
export const info = (stub: Stub, quota = QUOTA) => value<SessionInfo>(stub, { op: "session.info" }, quota);

/** SQL tables of the object other than the runtime's own (`_cf_*`). */
export async function userTables(stub: Stub): Promise<string[]> {
  return runInDurableObject(stub, (_instance, state) =>
    state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .toArray()
      .map((r) => r.name)
      .filter((name) => !name.startsWith("_cf_") && !name.startsWith("sqlite_")),
  );
}

export function randomBytes(size: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(size);
  for (let at = 0; at < size; at += 65_536) crypto.getRandomValues(data.subarray(at, at + 65_536));
  return data;
}

export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.byteLength !== b.byteLength) return Math.min(a.byteLength, b.byteLength);
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return i;
  return -1;
}
