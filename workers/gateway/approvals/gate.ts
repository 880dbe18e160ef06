import type { ApprovalDecision, PendingApproval } from "../../../durable-objects/approvals/approval";
import { hex } from "../../../shared/hash";
import { auditApproval, sha256Hex } from "../audit";
import { quoteName, ToolCallError } from "../discovery/tool-call-error";
import { clip } from "../discovery/ts-syntax";
import type { ExecutionEvents } from "../execution/events";
import type { RequestContext } from "../request/context";
import type { ExecutionSession } from "../sessions/execution";
import { type Span, traced } from "../tracing/trace";
import type { ApprovalAsker, ApprovalQuestion } from "./asker";
import { approvalDesk } from "./desk";
import { type ApprovalSubject, approvalRule } from "./policy";

/** The arguments as a person is shown them. */
const SHOWN_ARGS_CHARS = 1_000;
/** Time left for the code to act on a timeout before its execution ends. */
const DEADLINE_MARGIN_MS = 500;

export interface GateOptions {
  session: ExecutionSession;
  /** the execute's client, when it can be asked */
  asker?: ApprovalAsker | undefined;
  events?: ExecutionEvents | undefined;
  /** when the execution's wall clock ends (ms since epoch) and its timeoutMs */
  deadline: number;
  timeoutMs: number;
  /** aborted when the execution is cancelled */
  signal: AbortSignal;
}

/**
 * One execution's approvals: a call the team's policy names waits here (only that call) until a
 * person decides it, through the execute's client or an operator (GET/POST /admin/approvals), or
 * until it times out. The desk holds the pending approval, so a decision made in any isolate
 * reaches it; the first one stands. Denied, timed out or cancelled: the call throws and the
 * upstream never sees it. Every decision is audited.
 */
export class ApprovalGate {
  readonly #rule: (subject: ApprovalSubject) => string | undefined;
  readonly #approvedHere = new Set<string>();
  #approvedInSession: Promise<Set<string>> | undefined;

  constructor(
    private readonly ctx: RequestContext,
    private readonly options: GateOptions,
  ) {
    this.#rule = approvalRule(ctx.config.approvals);
  }

  /**
   * Returns when the call may go ahead; throws ApprovalDeniedError / ApprovalTimeoutError /
   * CancelledError. A wait for a person is an `approval` span under `span` (the call's).
   */
  async check(subject: ApprovalSubject, server: string, args: unknown, span?: Span): Promise<void> {
    const rule = this.#rule(subject);
    const tool = subject.qualifiedName;
    if (rule === undefined || this.#approvedHere.has(tool)) return;
    if ((await this.approvedInSession()).has(tool)) return;
    return traced(span, "approval", { "gen_ai.tool.name": tool }, (waiting) =>
      this.waitForDecision(tool, rule, server, args, waiting),
    );
  }

  private async waitForDecision(
    tool: string,
    rule: string,
    server: string,
    args: unknown,
    waiting: Span | undefined,
  ): Promise<void> {
    const policy = this.ctx.config.approvals;
    const startedAt = Date.now();
    const left = this.options.deadline - DEADLINE_MARGIN_MS - startedAt;
    const wanted = (policy?.timeoutSeconds ?? 0) * 1000;
    const byExecution = left < wanted;
    const timeoutMs = Math.max(0, Math.min(wanted, left));
    const pending = await this.open(tool, rule, args, startedAt, timeoutMs);
    this.options.events?.waitingForApproval(tool, pending.id);
    const decision = await this.decide(pending, server, timeoutMs);
    waiting?.set({ "gateway.approval.id": pending.id, "gateway.approval.decided_by": decision.by });
    // A cancelled execution gets one audit entry, its own.
    if (!this.options.signal.aborted) {
      auditApproval(this.ctx.env, this.ctx.waitUntil, this.actor(), {
        tool,
        args,
        startedAt,
        failure: failureOf(decision),
        decidedBy: decision.by,
      });
    }
    if (decision.status === "approved") {
      if (decision.remember !== "call") this.#approvedHere.add(tool);
      if (decision.remember === "session") await this.options.session.rememberApproval(tool);
      return;
    }
    throw this.refusal(tool, pending.id, decision, byExecution);
  }

  private async open(
    tool: string,
    rule: string,
    args: unknown,
    createdAt: number,
    timeoutMs: number,
  ): Promise<PendingApproval> {
    const { requestId, keyId, team } = this.ctx;
    const sessionId = this.options.session.id;
    const pending: PendingApproval = {
      id: `apr_${hex(crypto.getRandomValues(new Uint8Array(12)))}`,
      team,
      tool,
      args: clip(JSON.stringify(args ?? {}), SHOWN_ARGS_CHARS),
      argsSha256: await sha256Hex(args ?? {}),
      rule,
      requestId,
      keyId,
      ...(sessionId ? { sessionId } : {}),
      createdAt,
      deadline: createdAt + timeoutMs,
    };
    await approvalDesk(this.ctx.env).open(pending);
    return pending;
  }

  /** The first of: the client's answer, an operator's decision, the timeout, the execution's cancellation. */
  private async decide(
    pending: PendingApproval,
    server: string,
    timeoutMs: number,
  ): Promise<ApprovalDecision> {
    const desk = approvalDesk(this.ctx.env);
    const asking = new AbortController();
    const { signal, asker } = this.options;
    const question: ApprovalQuestion = {
      id: pending.id,
      tool: pending.tool,
      server,
      args: pending.args,
      rule: pending.rule,
      timeoutMs,
    };
    // A client that cannot be asked (its stream closed, it failed) leaves the decision to an operator.
    const fromClient = asker
      ? asker.ask(question, asking.signal).then(async (answer) => {
          const decided = await desk.decide(
            pending.id,
            { approve: answer?.approve ?? false, by: "client", remember: answer?.remember ?? "call" },
            pending.team,
          );
          return decided ?? never();
        }, never)
      : never();
    let onCancel: (() => void) | undefined;
    const cancelled = new Promise<ApprovalDecision>((resolve) => {
      onCancel = () => resolve(desk.expire(pending.id, "cancelled").then((d) => d ?? cancelledNow()));
      if (signal.aborted) onCancel();
      else signal.addEventListener("abort", onCancel, { once: true });
    });
    const fromDesk = desk
      .wait(pending.id, timeoutMs)
      .then(async (d) => d ?? (await desk.expire(pending.id, "timeout")) ?? cancelledNow());
    let decision: ApprovalDecision | undefined;
    try {
      decision = await Promise.race([fromDesk, fromClient, cancelled]);
      return decision;
    } finally {
      // The question is withdrawn unless the client itself answered it.
      asking.abort(decision?.by ?? "gateway");
      if (onCancel) signal.removeEventListener("abort", onCancel);
    }
  }

  private refusal(tool: string, id: string, decision: ApprovalDecision, byExecution: boolean): ToolCallError {
    const name = quoteName(tool);
    if (decision.status === "denied") {
      const who = decision.by === "operator" ? "an operator" : "the user";
      return new ToolCallError(
        "ApprovalDeniedError",
        `${name} was denied by ${who} (approval ${id}); the call did not run. Do not retry it: tell the user what it would have done`,
      );
    }
    if (decision.status === "cancelled") {
      return new ToolCallError(
        "CancelledError",
        `${name}: the execution was cancelled; the call did not run`,
      );
    }
    const { timeoutMs } = this.options;
    const max = this.ctx.config.limits.maxTimeoutMs;
    const seconds = this.ctx.config.approvals?.timeoutSeconds ?? 0;
    return new ToolCallError(
      "ApprovalTimeoutError",
      byExecution
        ? `${name}: no decision before the execution's timeoutMs (${timeoutMs} ms) ran out (approval ${id}); the call did not run. Retry with a larger timeoutMs (up to ${max}, EXEC_MAX_TIMEOUT_MS) so a person has time to answer`
        : `${name}: nobody decided within ${seconds} s (approval ${id}); the call did not run. Ask the user to approve it, then retry`,
    );
  }

  private approvedInSession(): Promise<Set<string>> {
    this.#approvedInSession ??= this.options.session.approvedTools();
    return this.#approvedInSession;
  }

  private actor() {
    const { requestId, team, keyId, user, traceId } = this.ctx;
    return { requestId, traceId, team, keyId, user, sessionId: this.options.session.id };
  }
}

function failureOf(decision: ApprovalDecision): string | undefined {
  switch (decision.status) {
    case "approved":
      return undefined;
    case "denied":
      return "ApprovalDeniedError";
    case "timeout":
      return "ApprovalTimeoutError";
    case "cancelled":
      return "CancelledError";
  }
}

/** A decision that could not be recorded (the desk lost the approval): the call does not run. */
function cancelledNow(): ApprovalDecision {
  return { status: "cancelled", by: "gateway", remember: "call", decidedAt: Date.now() };
}

function never(): Promise<never> {
  return new Promise(() => {});
}
