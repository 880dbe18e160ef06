/**
 * What the gateway's own layers (operations, sessions, admission) fail with, below HTTP: a code the
 * HTTP layer turns into a status in one place (http/errors.ts), and a message for the caller. Calls
 * from sandbox code fail with ToolCallError instead (bridge/call-tool.ts), and an execution's
 * failure is its result's `error` (execution/failure.ts).
 */
export type GatewayErrorCode = "session_not_found" | "limiter_unavailable";

export class GatewayError extends Error {
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "GatewayError";
  }
}
