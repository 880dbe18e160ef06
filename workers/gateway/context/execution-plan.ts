import type { ExecuteInput } from "../../../shared/contract/execute";
import { executionTimeoutMs } from "../execution/limits";
import type { ExecutionChannel, ExecutionPlan, LeaseClaim } from "../operations/plan";
import type { RequestContext } from "../request/context";

/**
 * The one builder of an execution's plan, for every way in (the 2025 fast path, the SDK's execute
 * tool of either era, REST, a detached run): its timeout resolved once, the lease the request's
 * admission took for it (a lone execution) or none yet, and its caller's channel, made for that
 * timeout (a cancellation listens no longer than the execution may run).
 */
export function planExecution(
  ctx: RequestContext,
  input: ExecuteInput,
  channelFor: (timeoutMs: number) => ExecutionChannel = () => ({}),
): ExecutionPlan {
  const timeoutMs = executionTimeoutMs(input, ctx.config.limits);
  return Object.freeze({ input, timeoutMs, lease: leaseOf(ctx), channel: channelFor(timeoutMs) });
}

function leaseOf(ctx: RequestContext): LeaseClaim {
  const lone = ctx.loneExecution;
  if (!lone) return { take: true };
  return lone.lease === null ? { refused: true } : { held: lone.lease };
}
