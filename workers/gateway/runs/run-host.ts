import { DurableObject } from "cloudflare:workers";
import type { NumberedEvent, RunEvent, RunStatus } from "../../../durable-objects/runs/run-event";
import { isEnd, RunLog } from "../../../durable-objects/runs/run-log";
import type { ExecuteInput } from "../../../shared/contract/execute";
import type { ApprovalAsker } from "../approvals/asker";
import { loadConfig } from "../config";
import type { GatewayEnv } from "../env";
import type { ExecutionEvents } from "../execution/events";
import { executionTimeoutMs } from "../execution/limits";
import { ProgressMeter } from "../execution/progress";
import { executeToResult } from "../operations/execute";
import type { RequestContext } from "../request/context";
import { withTeamLimits } from "../teams/resolve";
import type { TeamRecord } from "../teams/schema";

/** Who started a run: what its execution's context is made of (the rest comes from the env). */
export interface RunSpec {
  team: string;
  teamRecord: TeamRecord | null;
  keyId: string;
  requestId: string;
}

/** How long past its deadline a run that did not end is closed as `lost` (the host's grace and more). */
const DEADLINE_SLACK_MS = 10_000;
/** An ended run is kept (for tasks/get and a late retry) this long, then deleted. */
const KEEP_ENDED_MS = 3_600_000;
/** While a run is live its alarm fires this often: each is an event that keeps the object in memory. */
const KEEP_ALIVE_MS = 20_000;

/**
 * One execution that outlives the request that started it (MCP 2026-07-28: an approval answered by
 * a later request, or a task), run here, in its own Durable Object (id: the run id), so that it
 * survives between requests and every later request — the retry of an `input_required`,
 * `tasks/get`, `tasks/update`, `tasks/cancel` — reaches it wherever it lands. The execution is the
 * gateway's own (`executeToResult`, operations/execute.ts), with the context its request had; what it
 * reports (questions it waits on, progress, its ExecuteResult) goes to the run's log
 * (durable-objects/runs/run-log.ts), and the MCP answers are shaped from it where they are read
 * (mcp/round-trip.ts, mcp/tasks.ts).
 * Approvals are decided at the desk as always: a question is only reported here.
 */
export class RunHost extends DurableObject<GatewayEnv> {
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
  async start(spec: RunSpec, input: ExecuteInput, answerWithinMs: number | null): Promise<RunEvent | null> {
    if (this.#log.meta()) throw new Error("this run has already started");
    const loaded = loadConfig(this.env);
    if (!loaded.ok) throw new Error(`The gateway is misconfigured: ${loaded.problems.join("; ")}`);
    const config = withTeamLimits(loaded.config, spec.teamRecord);
    const ctx: RequestContext = {
      env: this.env,
      config,
      requestId: spec.requestId,
      team: spec.team,
      teamRecord: spec.teamRecord,
      keyId: spec.keyId,
      via: "mcp",
      mcpEra: "modern",
      waitUntil: (promise) => this.ctx.waitUntil(promise),
    };
    const deadline = Date.now() + executionTimeoutMs(input, config.limits) + DEADLINE_SLACK_MS;
    this.#log.open(spec.team, deadline);
    await this.ctx.storage.setAlarm(Date.now() + KEEP_ALIVE_MS);
    this.#cancel = new AbortController();
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
    const signal = this.#cancel.signal;
    void executeToResult(ctx, input, undefined, { asker, events, signal }).then(
      async (result) => {
        meter.close();
        report({ kind: "result", result });
        await this.ctx.storage.setAlarm(Date.now() + KEEP_ENDED_MS);
      },
      (err: unknown) =>
        report({ kind: "lost", message: `the execution failed: ${String(err).slice(0, 300)}` }),
    );
    return this.#log.next(spec.team, null, answerWithinMs ?? Number.POSITIVE_INFINITY);
  }

  /** The run's next question or end after the question of approval `after`; null after `maxMs`. */
  next(team: string, after: string | null, maxMs: number): Promise<NumberedEvent | null> {
    return this.#log.next(team, after, maxMs);
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
