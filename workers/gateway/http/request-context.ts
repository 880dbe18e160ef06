import type { MiddlewareHandler } from "hono";
import { log, setLogLevel } from "../../../shared/log";
import { loadConfig } from "../config";
import type { AppEnv } from "../env";

const VALID_ID = /^[\w.:-]{1,128}$/;

/** Request id (the caller's `X-Request-Id` when sane, else a new one), echoed and logged. */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.req.header("X-Request-Id");
  const requestId = given && VALID_ID.test(given) ? given : crypto.randomUUID();
  c.set("requestId", requestId);
  const config = loadConfig(c.env);
  if (config.ok) setLogLevel(config.config.logLevel);
  const started = Date.now();
  await next();
  c.res.headers.set("X-Request-Id", requestId);
  log(c.res.status >= 500 ? "error" : "info", "request", {
    requestId,
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    durationMs: Date.now() - started,
  });
};
