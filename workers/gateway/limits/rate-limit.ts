import type { Context, MiddlewareHandler } from "hono";
import { z } from "zod";
import type { TakeResult } from "../../../durable-objects/limiter/rate-limiter";
import type { AppEnv } from "../env";
import { readJson } from "../http/body";
import { HttpError } from "../http/errors";
import { scopeOf } from "../http/scope";
import { timed } from "../timing/clock";
import { admitInLine } from "./admission-line";
import { leaseTerms } from "./limiter";
import { releaseLease, requeueReleases, takeReleases } from "./releases";

/** A lone MCP `tools/call` of `execute`: its lease is taken with its tokens. */
const ExecuteCall = z.object({
  method: z.literal("tools/call"),
  params: z.object({ name: z.literal("execute") }),
});

/** JSON-RPC messages in a POST /mcp body: a batch is as many calls as it holds. */
export function messageCount(body: unknown): number {
  return Array.isArray(body) ? Math.max(1, body.length) : 1;
}

/**
 * Tokens a request costs (one per JSON-RPC message on POST /mcp, one otherwise) and whether it is one
 * execution. The /mcp body is read here, once, and handed to the route; a body that cannot be read
 * costs one token and the route answers its error.
 */
async function cost(c: Context<AppEnv>): Promise<{ count: number; execution: boolean }> {
  if (c.req.method !== "POST") return { count: 1, execution: false };
  if (c.req.path === "/v1/execute") return { count: 1, execution: true };
  if (c.req.path !== "/mcp") return { count: 1, execution: false };
  const body = readJson(c);
  c.set("mcpBody", body);
  return body.then(
    (parsed) => ({ count: messageCount(parsed), execution: ExecuteCall.safeParse(parsed).success }),
    () => ({ count: 1, execution: false }),
  );
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
 * with Retry-After and RateLimit-* headers (a JSON-RPC error body on /mcp). A request that is one
 * execution also gets its concurrency lease in the same Durable Object call, released when the
 * request ends (returned with the isolate's next admit, or within RELEASE_WINDOW_MS: releases.ts).
 * Admits of one team that meet in this isolate share calls (admission-line.ts).
 * Runs after the API key middleware.
 */
export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const clock = c.get("clock");
  const { config } = await timed(clock, "scope", () => scopeOf(c));
  const { count, execution } = await timed(clock, "body", () => cost(c), false);
  const team = c.get("team");
  const terms = execution ? leaseTerms(config) : undefined;
  const released = takeReleases(team);
  const waitUntil = c.executionCtx.waitUntil.bind(c.executionCtx);
  const result = await timed(
    clock,
    "admit",
    () =>
      admitInLine(
        c.env,
        team,
        { keyId: c.get("keyId"), perMinute: config.rateLimit.perMinute, count, lease: terms, released },
        waitUntil,
      ).catch((err) => {
        requeueReleases(c.env, team, released, waitUntil);
        throw err;
      }),
    false,
  );
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
  const lease = result.lease;
  if (lease !== undefined) c.set("slot", { lease, used: false });
  try {
    await next();
  } finally {
    if (lease) releaseLease(c.env, team, lease, waitUntil);
  }
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
};
