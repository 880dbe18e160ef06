import type { Context, MiddlewareHandler } from "hono";
import { log, logs, setLogLevel } from "../../../shared/log";
import { loadConfig } from "../config";
import type { AppEnv } from "./app-env";
import { traceIdOf } from "./request-trace";

const VALID_ID = /^[\w.:-]{1,128}$/;

/**
 * Request id (the caller's `X-Request-Id` when sane, else a new one), echoed, and logged with the
 * trace id after the response has left (a timed bench request logs before, so its log phase is measured).
 */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.req.header("X-Request-Id");
  const requestId = given && VALID_ID.test(given) ? given : crypto.randomUUID();
  c.set("requestId", requestId);
  const config = loadConfig(c.env);
  if (config.ok) setLogLevel(config.config.logLevel);
  const started = Date.now();
  await next();
  c.res.headers.set("X-Request-Id", requestId);
  const fields = {
    requestId,
    traceId: traceIdOf(c),
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    durationMs: Date.now() - started,
  };
  const level = fields.status >= 500 ? "error" : "info";
  if (!logs(level)) return;
  const line = () => log(level, "request", fields);
  const clock = c.get("clock");
  if (clock) await clock.time("log", line);
  else afterResponse(c, line);
};

/** Runs `work` once the response is on its way (a timer in `waitUntil`), or now without a context. */
function afterResponse(c: Context<AppEnv>, work: () => void): void {
  let waitUntil: (promise: Promise<unknown>) => void;
  try {
    const ctx = c.executionCtx;
    waitUntil = (promise) => ctx.waitUntil(promise);
  } catch {
    work();
    return;
  }
  waitUntil(new Promise<void>((resolve) => setTimeout(resolve, 0)).then(work));
}
