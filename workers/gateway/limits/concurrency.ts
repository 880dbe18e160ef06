import type { ExecuteResult } from "../../../shared/contract/execute";
import type { RequestScope } from "../operations/scope";
import { timed } from "../timing/clock";
import { leaseTerms, limiter } from "./limiter";
import { releaseLease } from "./releases";

/**
 * Runs an execution in one of the team's concurrent-execution slots (EXEC_MAX_CONCURRENT, or the
 * team's limits.maxConcurrent); when none is free the result is a ConcurrencyLimitError. A lone
 * `execute` request got its lease with its rate-limit tokens (one call); an execution in a batch
 * takes its own here and releases it when done.
 */
export async function inExecutionSlot(
  scope: RequestScope,
  run: () => Promise<ExecuteResult>,
): Promise<ExecuteResult> {
  const admitted = scope.slot;
  if (admitted && !admitted.used) {
    admitted.used = true;
    return admitted.lease === null ? refusal(scope) : run();
  }
  const stub = limiter(scope.env, scope.team);
  const { max, ttlMs } = leaseTerms(scope.config);
  const lease = await timed(scope.clock, "slot", () => stub.acquire(max, ttlMs), false);
  if (lease === null) return refusal(scope);
  try {
    return await run();
  } finally {
    releaseLease(scope.env, scope.team, lease, scope.waitUntil);
  }
}

function refusal(scope: RequestScope): ExecuteResult {
  return {
    logs: [],
    error: {
      name: "ConcurrencyLimitError",
      message: `Team "${scope.team}" already runs ${scope.config.rateLimit.maxConcurrent} executions at once; retry shortly`,
    },
    stats: { durationMs: 0, toolCalls: 0, truncated: false },
  };
}
