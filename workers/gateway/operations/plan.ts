import type { ExecuteInput } from "../../../shared/contract/execute";
import type { ApprovalAsker } from "../approvals/asker";
import type { ConnectAsker } from "../bridge/connect-ask";
import type { ExecutionEvents } from "../execution/events";

/**
 * The execution's concurrency lease as its plan finds it:
 * - `held`: admission took it with the request's tokens (a lone execution); `execute` gives it back;
 * - `refused`: admission found every lease of the team held, so the execution is refused;
 * - `take`: none was taken for it (an execute in a batch, a detached run); `execute` takes one.
 */
export type LeaseClaim = { held: string } | { refused: true } | { take: true };

/** What the caller of an execution offers while it runs; all optional (a JSON answer has none). */
export interface ExecutionChannel {
  /** progress, and console lines when `liveLogs` */
  events?: ExecutionEvents | undefined;
  liveLogs?: boolean | undefined;
  /** asks the person behind the client to approve a call */
  asker?: ApprovalAsker | undefined;
  /** asks the person behind the client to open a connect link (URL elicitation) */
  connectAsker?: ConnectAsker | undefined;
  /** the client cancelled: the execution stops, its isolate is abandoned */
  signal?: AbortSignal | undefined;
  /** the execution ended: stop listening (called once by `execute`, however it ended) */
  close?(): void;
}

/**
 * One execution as every way in hands it to `execute` (operations/execute.ts), built once by
 * `planExecution` (context/execution-plan.ts): what to run, for how long, under which lease, and what
 * its caller offers while it runs. Where it runs is decided from it by `placeExecution`
 * (execution/worker-pool.ts) once the skills its code names are known.
 */
export interface ExecutionPlan {
  readonly input: ExecuteInput;
  /** the wall-clock limit it runs under: its `timeoutMs`, else the team's default (checked against the maximum when sent) */
  readonly timeoutMs: number;
  readonly lease: LeaseClaim;
  readonly channel: ExecutionChannel;
}
