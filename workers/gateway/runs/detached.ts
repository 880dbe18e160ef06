import type { RunEvent } from "../../../durable-objects/runs/run-event";
import type { ExecuteInput } from "../../../shared/contract/execute";
import type { ApprovalAsker } from "../approvals/asker";
import type { RequestContext } from "../context/request-context";
import type { ExecutionEvents } from "../execution/events";
import { executionTimeoutMs } from "../execution/limits";
import { ProgressMeter } from "../execution/progress";
import { executeToolAnswer } from "../mcp/tools/execute";
import { newRunId, runLog } from "./run-log";

/** How long the log may go without hearing from the run after its deadline (the host's grace and more). */
const DEADLINE_SLACK_MS = 10_000;
/** How long one wait for a cancellation lasts before it is asked again. */
const CANCEL_POLL_MS = 50_000;

export interface DetachedRun {
  runId: string;
  /** the first question or the end, as the request that started the run sees it (no round trip) */
  first: Promise<RunEvent>;
}

/**
 * Starts an execution that may outlive the request that started it (MCP 2026-07-28: an approval
 * answered by a later request, or a task). It runs in this request's `waitUntil`; what it reports —
 * the questions it waits on, progress, its result — goes to its run log, where any isolate finds
 * it; a cancellation asked of the log stops it. Approvals are decided at the desk as always: a
 * question is only published, and the later request that carries the answer decides it.
 */
export async function startDetached(ctx: RequestContext, input: ExecuteInput): Promise<DetachedRun> {
  const runId = newRunId();
  const log = runLog(ctx.env, runId);
  const timeoutMs = executionTimeoutMs(input, ctx.config.limits);
  await log.open(ctx.team, Date.now() + timeoutMs + DEADLINE_SLACK_MS);
  // One at a time, in order: the log's order is the run's.
  let reported: Promise<unknown> = Promise.resolve();
  const report = (event: RunEvent) => {
    reported = reported.then(() => log.append(event).catch(() => null));
    return reported;
  };

  let resolveFirst: (event: RunEvent) => void = () => {};
  const first = new Promise<RunEvent>((resolve) => {
    resolveFirst = resolve;
  });
  const asker: ApprovalAsker = {
    ask(question, signal) {
      const event: RunEvent = { kind: "question", question };
      resolveFirst(event);
      ctx.waitUntil(report(event));
      // The answer comes to the desk through a later request; withdrawn, the question just ends.
      return new Promise((_, reject) =>
        signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
      );
    },
  };
  const meter = new ProgressMeter((progress, message) => {
    ctx.waitUntil(report({ kind: "progress", progress, message }));
  });
  const events: ExecutionEvents = {
    callFinished: (name, finished) => meter.callFinished(name, finished),
    waitingForApproval: (tool) => meter.note(`waiting for approval of ${tool}`),
    log: (line) => meter.note(line),
  };
  const cancel = new AbortController();
  const run = (async () => {
    const listening = listenForCancel(log, cancel);
    try {
      const result = await executeToolAnswer(ctx, input, undefined, { asker, events, signal: cancel.signal });
      meter.close();
      const end: RunEvent = { kind: "result", result };
      resolveFirst(end);
      await report(end);
    } finally {
      listening.stop();
    }
  })();
  ctx.waitUntil(run);
  return { runId, first };
}

function listenForCancel(log: ReturnType<typeof runLog>, cancel: AbortController): { stop(): void } {
  let stopped = false;
  void (async () => {
    while (!stopped && !cancel.signal.aborted) {
      const asked = await log.cancelled(CANCEL_POLL_MS).catch(() => undefined);
      if (asked && !stopped) cancel.abort("cancelled");
      if (asked === undefined) await new Promise((r) => setTimeout(r, 1_000));
    }
  })();
  return {
    stop() {
      stopped = true;
    },
  };
}
