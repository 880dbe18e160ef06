import type { ExecuteResult } from "../../../shared/contract/execute";
import type { RequestScope } from "../operations/scope";
import { limiter } from "./rate-limit";

/** A lease outlives a lost release by at most this much past the execution's own limit. */
const LEASE_GRACE_MS = 10_000;

/**
 * Runs an execution in one of the team's concurrent-execution slots (EXEC_MAX_CONCURRENT, or the
 * team's limits.maxConcurrent); when none is free the result is a ConcurrencyLimitError.
 */
export async function inExecutionSlot(
  scope: RequestScope,
  run: () => Promise<ExecuteResult>,
): Promise<ExecuteResult> {
  const stub = limiter(scope.env, `team:${scope.team}`);
  const max = scope.config.rateLimit.maxConcurrent;
  const lease = await stub.acquire(max, scope.config.limits.maxTimeoutMs + LEASE_GRACE_MS);
  if (lease === null) {
    return {
      logs: [],
      error: {
        name: "ConcurrencyLimitError",
        message: `Team "${scope.team}" already runs ${max} executions at once; retry shortly`,
      },
      stats: { durationMs: 0, toolCalls: 0, truncated: false },
    };
  }
  try {
    return await run();
  } finally {
    scope.waitUntil(stub.release(lease));
  }
}
