import { type ExecuteResult, failedExecution } from "../../../shared/contract/execute";
import { acquireLease, releaseLease } from "../admission/leases";
import { ApprovalGate } from "../approvals/gate";
import { auditExecution } from "../audit";
import { SandboxBridge } from "../bridge/sandbox-bridge";
import { BridgeWork } from "../bridge/work";
import { GatewayError } from "../errors";
import { ExecutionLedger } from "../execution/ledger";
import { placeExecution, placementWorker } from "../execution/placement";
import { withPrivateLogs } from "../execution/private-events";
import { sandboxHost } from "../execution/sandbox-host";
import { sendToSandbox } from "../execution/send-to-sandbox";
import type { RequestContext } from "../request/context";
import { ExecutionSession } from "../sessions/execution";
import { skillsForExecution } from "../skills/resolve";
import { timed } from "../timing/clock";
import { type Span, traced } from "../tracing/trace";
import { finishInSession } from "./finish";
import type { ExecutionPlan } from "./plan";

const NEVER_ABORTED = new AbortController().signal;

/**
 * `execute` (every way in: the MCP tool, POST /v1/execute, a detached run), the one owner of the
 * execution's concurrency lease and its channel: the plan's lease is used, taken, or refused as
 * `planExecution` found it; it goes back, and the channel is closed, however the execution ends. At
 * most EXEC_MAX_CONCURRENT (or the team's limits.maxConcurrent) run at once; beyond that the result
 * is a ConcurrencyLimitError.
 */
export async function execute(ctx: RequestContext, plan: ExecutionPlan): Promise<ExecuteResult> {
  const span = ctx.trace?.root.child("execute_tool execute", {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": "execute",
    "gateway.engine": ctx.config.sandbox.engine,
    "gateway.language": plan.input.language ?? "typescript",
    "gateway.team": ctx.team,
    "user.id": ctx.user,
    "gateway.code.bytes": plan.input.code.length,
  });
  if (!span) return executeLeased(ctx, plan, undefined);
  try {
    const result = await executeLeased(ctx, plan, span);
    span.set({ "gateway.outcome": result.error?.name ?? "ok", "gateway.tool_calls": result.stats.toolCalls });
    if (result.error) span.fail(result.error.name);
    return result;
  } catch (err) {
    span.fail(err instanceof Error ? err.name : "Error");
    throw err;
  } finally {
    span.end();
    span.set({ "gateway.duration.total_ms": (span.endMs ?? 0) - span.startMs });
  }
}

async function executeLeased(
  ctx: RequestContext,
  plan: ExecutionPlan,
  span: Span | undefined,
): Promise<ExecuteResult> {
  try {
    const claim = plan.lease;
    const lease =
      "held" in claim
        ? claim.held
        : "take" in claim
          ? await acquireLease(ctx.env, ctx.team, ctx.config, ctx.clock, ctx.waitUntil)
          : null;
    if (lease === null) {
      return failedExecution({
        name: "ConcurrencyLimitError",
        message: `Team "${ctx.team}" already runs ${ctx.config.rateLimit.maxConcurrent} executions at once; retry shortly`,
      });
    }
    try {
      return await executeInSession(ctx, plan, span);
    } finally {
      releaseLease(ctx.env, ctx.team, lease, ctx.waitUntil);
    }
  } finally {
    plan.channel.close?.();
  }
}

/**
 * `execute` for a caller that answers however it ends with a result (the MCP tool, a detached run):
 * an unknown sessionId is a SessionNotFoundError result instead of the GatewayError `execute` throws
 * (which REST answers with 404). Any other failure still throws.
 */
export async function executeToResult(ctx: RequestContext, plan: ExecutionPlan): Promise<ExecuteResult> {
  try {
    return await execute(ctx, plan);
  } catch (err) {
    if (!(err instanceof GatewayError && err.code === "session_not_found")) throw err;
    return failedExecution({
      name: "SessionNotFoundError",
      message: `sessionId ${JSON.stringify(plan.input.sessionId)}: ${err.message}`,
    });
  }
}

/**
 * One execution in its session: the isolate gets one capability, a bridge object made for this
 * execution, which counts its calls in the ledger and holds back calls that need a person's
 * approval; its network is none, or the team's egress allowlist through that bridge. The result is
 * finished (PII, session id) and audited. A cancelled execution writes nothing more: its one audit
 * entry says `cancelled`.
 */
async function executeInSession(
  ctx: RequestContext,
  plan: ExecutionPlan,
  span: Span | undefined,
): Promise<ExecuteResult> {
  const startedAt = Date.now();
  const { clock } = ctx;
  const { input, timeoutMs, channel } = plan;
  const { signal } = channel;
  let session: ExecutionSession | undefined;
  /** the Dynamic Worker that runs it, for the audit entry */
  let worker: string | undefined;
  try {
    session = await timed(clock, "exec_session", () => ExecutionSession.open(ctx, input.sessionId));
    const egress = ctx.teamRecord?.egress ?? [];
    const ledger = new ExecutionLedger(ctx.config.limits);
    const skills = await timed(clock, "skills", () => skillsForExecution(ctx, input.code));
    const events =
      channel.events && ctx.config.pii === "tokenize"
        ? withPrivateLogs(channel.events, session)
        : channel.events;
    const gate = ctx.config.approvals
      ? new ApprovalGate(ctx, {
          session,
          asker: channel.asker,
          events,
          deadline: startedAt + timeoutMs,
          timeoutMs,
          signal: signal ?? NEVER_ABORTED,
        })
      : undefined;
    const work = new BridgeWork(ctx, ledger, {
      egress,
      session,
      skills: skills.records,
      gate,
      events,
      signal,
      connectAsker: channel.connectAsker,
      deadline: startedAt + timeoutMs,
      span,
    });
    const placed = placeExecution(ctx.team, ctx.config.sandbox, input.language, skills.loaded);
    worker = placementWorker(placed.placement);
    span?.set({ "gateway.session.id": session.id, "gateway.worker": worker });
    const keepWholeResult = session.canKeepFiles;
    const sandboxFrom = Date.now();
    const ran = await traced(span, "sandbox", { "gateway.worker": worker }, () =>
      sendToSandbox(
        {
          host: sandboxHost(ctx.env, clock),
          placement: placed.placement,
          limits: ctx.config.limits,
          bridge: new SandboxBridge(work),
          ledger,
          egress: egress.length > 0,
          skills,
          piiSafeCuts: ctx.config.pii === "tokenize",
          keepWholeResult,
          liveLogs: channel.liveLogs === true && events !== undefined,
          signal,
        },
        input,
        timeoutMs,
      ).finally(placed.release),
    );
    span?.set({
      "gateway.duration.queue_ms": sandboxFrom - span.startMs,
      "gateway.duration.sandbox_ms": Date.now() - sandboxFrom,
    });
    if (signal?.aborted) {
      auditExecution(ctx, session.id, input, startedAt, { cancelled: true }, worker);
      return ran;
    }
    const inSession = session;
    const result = await timed(clock, "finish", () => finishInSession(ctx, inSession, ran));
    await timed(clock, "audit", () =>
      auditExecution(ctx, inSession.id, input, startedAt, { result }, worker),
    );
    return result;
  } catch (thrown) {
    auditExecution(ctx, session?.id, input, startedAt, { thrown }, worker);
    throw thrown;
  }
}
