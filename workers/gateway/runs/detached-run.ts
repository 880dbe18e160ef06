import { DurableObject } from "cloudflare:workers";
import type { ExecuteInput } from "../../../shared/contract/execute";
import type { ApprovalAsker } from "../approvals/asker";
import type { ConnectAsker } from "../bridge/connect-ask";
import { buildContext, type Caller } from "../context/build";
import { planExecution } from "../context/execution-plan";
import type { GatewayEnv } from "../env";
import type { ExecutionEvents } from "../execution/events";
import { ProgressMeter } from "../execution/progress";
import { executeToResult } from "../operations/execute";
import { parseTraceparent } from "../tracing/context";
import { exportTrace } from "../tracing/export";
import { SpanKind, Trace } from "../tracing/trace";
import type { NumberedEvent, RunEvent, RunStatus } from "./run-event";
import { isEnd, RunLog } from "./run-log";

/** How long past its deadline a run that did not end is closed as `lost` (the sandbox host's grace and more). */
const DEADLINE_SLACK_MS = 10_000;
/** An ended run is kept (for tasks/get and a late retry) this long, then deleted. */
const KEEP_ENDED_MS = 3_600_000;
/** While a run is live its alarm fires this often: each is an event that keeps the object in memory. */
const KEEP_ALIVE_MS = 20_000;
/** Where the run's span (`traceparent`) is kept, for the spans of requests that resume it to link to. */
const TRACE_KEY = "traceparent";

/**
 * One execution that outlives the request that started it (MCP 2026-07-28: an approval answered by
 * a later request, or a task), run here, in its own Durable Object (id: the run id), so that it
 * survives between requests and every later request — the retry of an `input_required`,
 * `tasks/get`, `tasks/update`, `tasks/cancel` — reaches it wherever it lands. A detached run is a way
 * into an execution of its own: its context is built by the middleware's builder from the caller its
 * request had (context/build.ts), its plan by the one plan builder, and `executeToResult`
 * (operations/execute.ts) runs it; what it reports (questions it waits on, progress, its
 * ExecuteResult) goes to the run's log (run-log.ts), and the MCP answers are shaped from it where
 * they are read (mcp/round-trip.ts, mcp/tasks.ts).
 * Approvals are decided at the desk as always: a question is only reported here.
 */
export class DetachedRun extends DurableObject<GatewayEnv> {
  readonly #log: RunLog;
  #cancel: AbortController | undefined;

  constructor(ctx: DurableObjectState, env: GatewayEnv) {
    super(ctx, env);
    this.#log = new RunLog(ctx.storage.sql);
  }

  /**
   * Starts the run and answers with its first question or its end, or null when neither came within
   * `answerWithinMs` (null: wait for one). Refused for an object that already ran.
   */
  async start(caller: Caller, input: ExecuteInput, answerWithinMs: number | null): Promise<RunEvent | null> {
    if (this.#log.meta()) throw new Error("this run has already started");
    const waitUntil = (promise: Promise<unknown>) => this.ctx.waitUntil(promise);
    // A sampled request's run is a trace of its own under the request's span, sent when it ends.
    const parent = parseTraceparent(caller.traceparent);
    const trace =
      parent && caller.config.tracing.endpoint
        ? new Trace(caller.config.tracing, parent, "run", SpanKind.INTERNAL, {
            "gateway.run.id": this.ctx.id.name,
            "gateway.request_id": caller.requestId,
          })
        : undefined;
    if (trace) await this.ctx.storage.put(TRACE_KEY, trace.root.traceparent());
    const ctx = buildContext(
      this.env,
      caller,
      { via: "mcp", mcpEra: "modern", ...(trace ? { trace } : {}) },
      waitUntil,
    );
    const cancel = new AbortController();
    this.#cancel = cancel;
    const report = (event: RunEvent) => {
      this.#log.append(event);
    };
    const asker: ApprovalAsker = {
      ask(question, signal) {
        report({ kind: "question", question });
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
    // A connect link is reported likewise; the call waits for the connection in the store.
    const connectAsker: ConnectAsker = {
      async ask(connect) {
        report({ kind: "connect", connect });
      },
    };
    const plan = planExecution(ctx, input, () => ({
      asker,
      connectAsker,
      events,
      signal: cancel.signal,
      close: () => meter.close(),
    }));
    this.#log.open(caller.team, Date.now() + plan.timeoutMs + DEADLINE_SLACK_MS);
    await this.ctx.storage.setAlarm(Date.now() + KEEP_ALIVE_MS);
    void executeToResult(ctx, plan)
      .then(
        async (result) => {
          report({ kind: "result", result });
          await this.ctx.storage.setAlarm(Date.now() + KEEP_ENDED_MS);
        },
        (err: unknown) =>
          report({ kind: "lost", message: `the execution failed: ${String(err).slice(0, 300)}` }),
      )
      .finally(() => trace && waitUntil(trace.settled(0).then(() => exportTrace(trace, waitUntil))));
    return this.#log.next(caller.team, null, answerWithinMs ?? Number.POSITIVE_INFINITY);
  }

  /** The run's next question or end after the question of approval `after`; null after `maxMs`. */
  next(team: string, after: string | null, maxMs: number): Promise<NumberedEvent | null> {
    return this.#log.next(team, after, maxMs);
  }

  /** The run's span (`traceparent`) when it is traced, for a resuming request's span to link to. */
  async traceparent(team: string): Promise<string | null> {
    if (this.#log.meta()?.team !== team) return null;
    return (await this.ctx.storage.get<string>(TRACE_KEY)) ?? null;
  }

  status(team: string): RunStatus | null {
    return this.#log.status(team);
  }

  /** Stops the run at once (as notifications/cancelled does); false for another team's run. */
  cancel(team: string): boolean {
    if (!this.#log.markCancelled(team)) return false;
    this.#cancel?.abort("cancelled");
    return true;
  }

  override async alarm(): Promise<void> {
    const meta = this.#log.meta();
    const last = this.#log.last();
    if (!meta || (last && isEnd(last) && Date.now() - last.at >= KEEP_ENDED_MS)) {
      await this.ctx.storage.deleteAll();
      return;
    }
    if (last && isEnd(last)) {
      await this.ctx.storage.setAlarm(last.at + KEEP_ENDED_MS);
      return;
    }
    if (Date.now() > meta.deadline || !this.#cancel) {
      // Past its deadline, or the object was restarted and its execution is gone.
      this.#log.append({ kind: "lost", message: "the execution stopped without a result" });
      await this.ctx.storage.setAlarm(Date.now() + KEEP_ENDED_MS);
      return;
    }
    await this.ctx.storage.setAlarm(Date.now() + KEEP_ALIVE_MS);
  }
}
