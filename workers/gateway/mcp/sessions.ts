import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import type { SessionRecord } from "../../../durable-objects/session/record";
import type { GatewayEnv } from "../env";
import { HttpError, invalidRequest, RPC } from "../http/errors";
import { forgetSession, liveSession } from "../sessions/live";
import { sessionNotFound, sessionStub } from "../sessions/store";

/** MCP 2025-06-18 removed JSON-RPC batching; older versions allow it, capped here. */
const BATCHING_REMOVED_IN = "2025-06-18";
export const MAX_BATCH_MESSAGES = 20;

/**
 * The live MCP session named by the request and opened by the same team, or 400 / 404. Sessions
 * made by POST /v1/sessions or for a session-less caller are state containers, not MCP sessions.
 */
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
  const record = await liveSession(env, header, team);
  if (!record || (record.kind ?? "mcp") !== "mcp") throw sessionNotFound(NOT_FOUND_DETAIL);
  return record;
}

/**
 * A batch is allowed only when neither the session's negotiated version nor the declared
 * MCP-Protocol-Version (an unsupported one is the SDK's 400) removed batching, and only up to
 * MAX_BATCH_MESSAGES messages.
 */
export function requireBatchAllowed(record: SessionRecord, declared: string | undefined, size: number): void {
  const versions = record.protocolVersion === undefined ? [] : [record.protocolVersion];
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
  forgetSession(header);
  if (!(await sessionStub(env, header).close())) throw sessionNotFound(NOT_FOUND_DETAIL);
}

const NOT_FOUND_DETAIL = "it was never opened, was deleted or expired; initialize again";
