import type { Context, MiddlewareHandler } from "hono";
import type { RateLimiter, TakeResult } from "../../../durable-objects/limiter/rate-limiter";
import type { AppEnv, GatewayEnv } from "../env";
import { readJson } from "../http/body";
import { HttpError } from "../http/errors";
import { scopeOf } from "../http/scope";

export function limiter(env: GatewayEnv, name: string): DurableObjectStub<RateLimiter> {
  const ns = env.RATE_LIMITER as unknown as DurableObjectNamespace<RateLimiter>;
  return ns.get(ns.idFromName(name));
}

/** JSON-RPC messages in a POST /mcp body: a batch is as many calls as it holds. */
export function messageCount(body: unknown): number {
  return Array.isArray(body) ? Math.max(1, body.length) : 1;
}

/**
 * Tokens a request costs: one per JSON-RPC message on POST /mcp, one otherwise. The /mcp body is
 * read here, once, and handed to the route; a body that cannot be read costs one token and the
 * route answers its error.
 */
async function cost(c: Context<AppEnv>): Promise<number> {
  if (c.req.method !== "POST" || c.req.path !== "/mcp") return 1;
  const body = readJson(c);
  c.set("mcpBody", body);
  return body.then(messageCount, () => 1);
}

function refusal(result: TakeResult, count: number): string {
  if (count > result.limit) {
    return `Too many requests: this batch of ${count} messages needs ${count} tokens (one per message), more than this key's ${result.limit} per minute; send smaller batches`;
  }
  const batch = count > 1 ? `this batch of ${count} messages needs ${count} tokens (one per message), ` : "";
  return `Too many requests: ${batch}${result.limit} per minute for this key; retry in ${result.retryAfterSeconds} s`;
}

/**
 * Tokens from the API key's bucket (RATE_LIMIT_PER_MINUTE, or the team's limits.requestsPerMinute):
 * one per request, one per JSON-RPC message on /mcp, taken all at once or not at all. Refused: 429
 * with Retry-After and RateLimit-* headers (a JSON-RPC error body on /mcp). Runs after the API key
 * middleware.
 */
export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { config } = await scopeOf(c);
  const count = await cost(c);
  const result = await limiter(c.env, `key:${c.get("keyId")}`).take(config.rateLimit.perMinute, count);
  const headers = {
    "RateLimit-Limit": String(result.limit),
    "RateLimit-Remaining": String(result.remaining),
    "RateLimit-Reset": String(result.resetSeconds),
    "RateLimit-Policy": `${result.limit};w=60`,
  };
  if (!result.allowed) {
    throw new HttpError(429, "rate_limited", refusal(result, count), {
      ...headers,
      "Retry-After": String(result.retryAfterSeconds),
    });
  }
  await next();
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
};
