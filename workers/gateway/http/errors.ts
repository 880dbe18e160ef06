import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { log } from "../../../shared/log";
import type { AppEnv } from "../env";

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
    readonly status: 400 | 401 | 403 | 404 | 405 | 406 | 413 | 415 | 429 | 500 | 503,
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

/**
 * Every error leaves here: JSON `{ error: { code, message }, requestId }` on REST routes, a JSON-RPC
 * error object on /mcp. Anything that is not an HttpError is a bug: logged, answered 500.
 */
export function toErrorResponse(err: unknown, c: Context<AppEnv>): Response {
  const requestId = c.get("requestId");
  let known: HttpError;
  if (err instanceof HttpError) known = err;
  else if (err instanceof HTTPException) known = new HttpError(err.status as 400, "bad_request", err.message);
  else {
    log("error", "unhandled error", {
      requestId,
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
          error: { code: known.rpcCode, message: known.message, data: { code: known.code, requestId } },
        }
      : { error: { code: known.code, message: known.message }, requestId };
  return new Response(JSON.stringify(body), { status: known.status, headers });
}
