import type { ExecuteInput, ExecuteResult } from "../../shared/contract/execute";
import { planExecution } from "../../workers/gateway/context/execution-plan";
import { execute as executePlan } from "../../workers/gateway/operations/execute";
import type { ExecutionChannel } from "../../workers/gateway/operations/plan";
import type { RequestContext } from "../../workers/gateway/request/context";

/** `execute` of an input, planned as every way in plans it (context/execution-plan.ts). */
export function execute(
  ctx: RequestContext,
  input: ExecuteInput,
  channel: ExecutionChannel = {},
): Promise<ExecuteResult> {
  return executePlan(
    ctx,
    planExecution(ctx, input, () => channel),
  );
}
