import type { MiddlewareHandler } from "hono";
import type { RateLimiter } from "../../../durable-objects/limiter/rate-limiter";
import type { AppEnv, GatewayEnv } from "../env";
import { HttpError } from "../http/errors";
import { scopeOf } from "../http/scope";

export function limiter(env: GatewayEnv, name: string): DurableObjectStub<RateLimiter> {
  const ns = env.RATE_LIMITER as unknown as DurableObjectNamespace<RateLimiter>;
  return ns.get(ns.idFromName(name));
}

/**
 * One token per request from the API key's bucket (RATE_LIMIT_PER_MINUTE, or the team's
 * limits.requestsPerMinute). Refused: 429 with Retry-After and RateLimit-* headers (a JSON-RPC
 * error body on /mcp). Runs after the API key middleware.
 */
export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { config } = await scopeOf(c);
  const result = await limiter(c.env, `key:${c.get("keyId")}`).take(config.rateLimit.perMinute);
  const headers = {
    "RateLimit-Limit": String(result.limit),
    "RateLimit-Remaining": String(result.remaining),
    "RateLimit-Reset": String(result.resetSeconds),
    "RateLimit-Policy": `${result.limit};w=60`,
  };
  if (!result.allowed) {
    throw new HttpError(
      429,
      "rate_limited",
      `Too many requests: ${result.limit} per minute for this key; retry in ${result.retryAfterSeconds} s`,
      { ...headers, "Retry-After": String(result.retryAfterSeconds) },
    );
  }
  await next();
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
};
