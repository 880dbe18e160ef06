import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { log } from "../../../shared/log";
import { ToolCallError } from "../discovery/tool-call-error";
import { GatewayError, type GatewayErrorCode } from "../errors";
import type { AppEnv } from "./app-env";
import { traceIdOf } from "./request-trace";

/** JSON-RPC error codes used for HTTP-level faults on /mcp (same as the SDK's transport). */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  serverError: -32000,
  sessionNotFound: -32001,
};

/** The one error type routes throw; `toErrorResponse` turns it into a response. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 406 | 409 | 413 | 415 | 429 | 500 | 502 | 503,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly rpcCode: number = RPC.serverError,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** 400 with a JSON-RPC invalid-request error: the message breaks a rule of JSON-RPC or MCP. */
export function invalidRequest(code: string, message: string): HttpError {
  return new HttpError(400, code, message, {}, RPC.invalidRequest);
}

/** The HTTP answer to each failure of the layers below. */
const GATEWAY_STATUS: Record<GatewayErrorCode, { status: 400 | 404 | 429 | 503; rpcCode: number }> = {
  session_not_found: { status: 404, rpcCode: RPC.sessionNotFound },
  file_not_found: { status: 404, rpcCode: RPC.serverError },
  invalid_path: { status: 400, rpcCode: RPC.serverError },
  rate_limited: { status: 429, rpcCode: RPC.serverError },
  limiter_unavailable: { status: 503, rpcCode: RPC.serverError },
};

/**
 * A discovery failure on REST: only an unknown tool is a 404; one the team's allow/deny lists remove
 * is a 403; a broken server or config is neither.
 */
function toolFailure(err: ToolCallError): HttpError {
  switch (err.name) {
    case "UnknownToolError":
      return new HttpError(404, "unknown_tool", err.message);
    case "ToolNotAllowedError":
      return new HttpError(403, "tool_not_allowed", err.message);
    case "UpstreamError":
      return new HttpError(502, "upstream_unavailable", err.message);
    case "ConfigError":
      return new HttpError(503, "misconfigured", err.message);
    default:
      return new HttpError(400, "invalid_request", err.message);
  }
}

/** Any error as the HttpError it is answered with; undefined for a bug (not an error of ours). */
function asHttpError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof GatewayError) {
    const { status, rpcCode } = GATEWAY_STATUS[err.code];
    return new HttpError(status, err.code, err.message, err.headers, rpcCode);
  }
  if (err instanceof ToolCallError) return toolFailure(err);
  if (err instanceof HTTPException) return new HttpError(err.status as 400, "bad_request", err.message);
  return undefined;
}

/**
 * Every error leaves here: JSON `{ error: { code, message }, requestId, traceId }` on REST routes (`traceId`
 * when the request has one), a JSON-RPC
 * error object on /mcp. Anything asHttpError does not know is a bug: logged, answered 500.
 */
export function toErrorResponse(err: unknown, c: Context<AppEnv>): Response {
  const requestId = c.get("requestId");
  const traceId = traceIdOf(c);
  let known = asHttpError(err);
  if (known === undefined) {
    log("error", "unhandled error", {
      requestId,
      traceId,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    known = new HttpError(500, "internal_error", "Internal error; the request id is in the logs");
  }
  const headers = { ...known.headers, "Content-Type": "application/json" };
  const body =
    c.req.path === "/mcp"
      ? {
          jsonrpc: "2.0",
          id: null,
          error: {
            code: known.rpcCode,
            message: known.message,
            data: { code: known.code, requestId, traceId },
          },
        }
      : { error: { code: known.code, message: known.message }, requestId, traceId };
  return new Response(JSON.stringify(body), { status: known.status, headers });
}
