import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { SessionRecord } from "../../../durable-objects/session/record";
import type { SessionObject } from "../../../durable-objects/session/session-object";
import type { GatewayEnv } from "../env";
import { HttpError, invalidRequest, RPC } from "../http/errors";

const SESSION_ID = /^[0-9a-f-]{36}$/;

/** MCP 2025-06-18 removed JSON-RPC batching; older versions allow it, capped here. */
const BATCHING_REMOVED_IN = "2025-06-18";
export const MAX_BATCH_MESSAGES = 20;

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

/**
 * A batch is allowed only when neither the session's negotiated version nor the declared
 * MCP-Protocol-Version (an unsupported one is the SDK's 400) removed batching, and only up to
 * MAX_BATCH_MESSAGES messages.
 */
export function requireBatchAllowed(record: SessionRecord, declared: string | undefined, size: number): void {
  const versions = [record.protocolVersion];
  if (declared !== undefined && SUPPORTED_PROTOCOL_VERSIONS.includes(declared)) versions.push(declared);
  const refusing = versions.find((v) => v >= BATCHING_REMOVED_IN);
  if (refusing !== undefined) {
    throw invalidRequest(
      "batch_not_supported",
      `Invalid Request: JSON-RPC batches are not part of MCP protocol version ${refusing} (removed in ${BATCHING_REMOVED_IN}); send one message per request`,
    );
  }
  if (size > MAX_BATCH_MESSAGES) {
    throw invalidRequest(
      "batch_too_large",
      `Invalid Request: a JSON-RPC batch may hold at most ${MAX_BATCH_MESSAGES} messages (got ${size})`,
    );
  }
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
