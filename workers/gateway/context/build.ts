import type { GatewayEnv } from "../env";
import type { RequestContext } from "../request/context";

/**
 * Who a request acts for and under which configuration: what a detached run it starts takes with it
 * (plain data, structured-cloneable), so that its execution runs as its request would have.
 */
export type Caller = Pick<
  RequestContext,
  "config" | "team" | "teamRecord" | "keyId" | "user" | "requestId" | "traceId" | "origin"
> & {
  /** the request's span (`traceparent`), when its trace is sampled: a detached run's trace goes on under it */
  traceparent?: string;
};

/** What the request itself adds to its context (none of it for a detached run). */
export type RequestParts = Pick<RequestContext, "via"> &
  Partial<
    Pick<RequestContext, "body" | "messages" | "mcpEra" | "mcpSession" | "loneExecution" | "clock" | "trace">
  >;

/**
 * The one builder of a `RequestContext`, frozen: the middleware's for every /mcp and /v1/* request,
 * and a detached run's for its execution (runs/detached-run.ts), from the caller its request had.
 */
export function buildContext(
  env: GatewayEnv,
  caller: Caller,
  request: RequestParts,
  waitUntil: (promise: Promise<unknown>) => void,
): RequestContext {
  const { config, team, teamRecord, keyId, user, requestId, traceId, origin } = caller;
  return Object.freeze({
    env,
    config,
    requestId,
    ...(traceId ? { traceId } : {}),
    origin,
    team,
    teamRecord,
    keyId,
    user,
    ...request,
    waitUntil,
  });
}

/** The caller of a request's context, for a run it starts. */
export function callerOf(ctx: RequestContext): Caller {
  const { config, team, teamRecord, keyId, user, requestId, traceId, origin } = ctx;
  return {
    config,
    team,
    teamRecord,
    keyId,
    user,
    requestId,
    ...(traceId ? { traceId } : {}),
    origin,
    ...(ctx.trace?.recording ? { traceparent: ctx.trace.root.traceparent() } : {}),
  };
}
