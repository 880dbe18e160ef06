/**
 * What the gateway's own layers (operations, sessions, admission) fail with, below HTTP: a code the
 * HTTP layer turns into a status in one place (http/errors.ts), and a message for the caller. Calls
 * from sandbox code fail with ToolCallError instead (discovery/tool-call-error.ts), and an execution's
 * failure is its result's `error` (`failedExecution`, shared/contract/execute.ts).
 */
export type GatewayErrorCode =
  | "session_not_found"
  | "file_not_found"
  | "invalid_path"
  | "rate_limited"
  | "limiter_unavailable";

export class GatewayError extends Error {
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    /** headers the answer carries (a refusal's RateLimit-* and Retry-After) */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "GatewayError";
  }
}
