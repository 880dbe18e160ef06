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
  /**
   * Makes the run reachable from other requests: opens its log and writes what it reported so far;
   * from then on it reports there, and listens there for a cancellation. Call it before answering
   * with anything but the result (an `input_required`, a task).
   */
  handOff(): Promise<void>;
}

/**
 * Starts an execution that may outlive the request that started it (MCP 2026-07-28: an approval
 * answered by a later request, or a task). It runs in this request's `waitUntil`. Until it is handed
 * off it costs nothing more than any execution: what it reports stays here; an execution that ends
 * first just answers. Approvals are decided at the desk as always: a question is only reported, and
 * the later request that carries the answer decides it.
 */
export function startDetached(
  ctx: RequestContext,
  input: ExecuteInput,
  requestSignal?: AbortSignal,
): DetachedRun {
  const runId = newRunId();
  const log = runLog(ctx.env, runId);
  const deadline = Date.now() + executionTimeoutMs(input, ctx.config.limits) + DEADLINE_SLACK_MS;
  const held: RunEvent[] = [];
  let handedOff: Promise<unknown> | undefined;
  // One at a time, in order: the log's order is the run's.
  const report = (event: RunEvent) => {
    if (!handedOff) {
      if (event.kind === "progress" && held.at(-1)?.kind === "progress") held.pop();
      held.push(event);
      return;
    }
    handedOff = handedOff.then(() => log.append(event).catch(() => null));
    ctx.waitUntil(handedOff);
  };

  let resolveFirst: (event: RunEvent) => void = () => {};
  const first = new Promise<RunEvent>((resolve) => {
    resolveFirst = resolve;
  });
  const asker: ApprovalAsker = {
    ask(question, signal) {
      const event: RunEvent = { kind: "question", question };
      report(event);
      resolveFirst(event);
      // The answer comes to the desk through a later request; withdrawn, the question just ends.
      return new Promise((_, reject) =>
        signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
      );
    },
  };
  const meter = new ProgressMeter((progress, message) => report({ kind: "progress", progress, message }));
  const events: ExecutionEvents = {
    callFinished: (name, finished) => meter.callFinished(name, finished),
    waitingForApproval: (tool) => meter.note(`waiting for approval of ${tool}`),
    log: (line) => meter.note(line),
  };
  const cancel = new AbortController();
  const onRequestAbort = () => {
    if (!handedOff) cancel.abort("cancelled");
  };
  requestSignal?.addEventListener("abort", onRequestAbort, { once: true });
  let listening: { stop(): void } | undefined;
  ctx.waitUntil(
    (async () => {
      try {
        const result = await executeToolAnswer(ctx, input, undefined, {
          asker,
          events,
          signal: cancel.signal,
        });
        meter.close();
        const end: RunEvent = { kind: "result", result };
        report(end);
        resolveFirst(end);
        await handedOff;
      } finally {
        listening?.stop();
        requestSignal?.removeEventListener("abort", onRequestAbort);
      }
    })(),
  );
  return {
    runId,
    first,
    handOff() {
      if (!handedOff) {
        handedOff = (async () => {
          await log.open(ctx.team, deadline);
          for (const event of held.splice(0)) await log.append(event).catch(() => null);
        })();
        ctx.waitUntil(handedOff);
        listening = listenForCancel(log, cancel);
      }
      return handedOff.then(() => undefined);
    },
  };
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
