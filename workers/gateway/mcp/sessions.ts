import type { SessionRecord } from "../../../durable-objects/session/record";
import type { SessionObject } from "../../../durable-objects/session/session-object";
import type { GatewayEnv } from "../env";
import { HttpError, RPC } from "../http/errors";

const SESSION_ID = /^[0-9a-f-]{36}$/;

function stub(env: GatewayEnv, id: string): DurableObjectStub<SessionObject> {
  const ns = env.SESSIONS;
  return ns.get(ns.idFromName(id));
}

export function newSessionId(): string {
  return crypto.randomUUID();
}

export async function openSession(env: GatewayEnv, record: SessionRecord): Promise<void> {
  await stub(env, record.id).open(record);
}

/** The live session named by the request and opened by the same team, or 400 / 404. */
export async function requireSession(
  env: GatewayEnv,
  header: string | undefined,
  team: string,
): Promise<SessionRecord> {
  if (!header) {
    throw new HttpError(
      400,
      "session_required",
      "Mcp-Session-Id header is required (send initialize first)",
      {},
      RPC.invalidRequest,
    );
  }
  const record = SESSION_ID.test(header) ? await stub(env, header).touch() : null;
  if (!record || record.team !== team) throw sessionNotFound();
  return record;
}

export async function closeSession(env: GatewayEnv, header: string | undefined, team: string): Promise<void> {
  if (!header)
    throw new HttpError(400, "session_required", "Mcp-Session-Id header is required", {}, RPC.invalidRequest);
  await requireSession(env, header, team);
  if (!(await stub(env, header).close())) throw sessionNotFound();
}

function sessionNotFound(): HttpError {
  return new HttpError(
    404,
    "session_not_found",
    "Session not found: it was never opened, was deleted or expired; initialize again",
    {},
    RPC.sessionNotFound,
  );
}
