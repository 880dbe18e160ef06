import { type ExecuteInput, type ExecuteResult, failedExecution } from "../../../shared/contract/execute";
import { acquireLease, releaseLease } from "../admission/leases";
import { auditExecution } from "../audit";
import { SandboxBridge } from "../bridge/sandbox-bridge";
import { BridgeWork } from "../bridge/work";
import type { RequestContext } from "../context/request-context";
import { ExecutionLedger } from "../execution/ledger";
import { sandboxHost } from "../execution/sandbox-host";
import { sendToSandbox } from "../execution/send-to-sandbox";
import { ExecutionSession } from "../sessions/execution";
import { skillsForExecution } from "../skills/resolve";
import { timed } from "../timing/clock";
import { finishInSession } from "./finish";

/**
 * `execute` (MCP tool and POST /v1/execute), the one owner of the execution's concurrency lease:
 * `granted` is the lease admission took for a lone execution (null: none was free); without one a
 * lease is taken here. It goes back in the `finally`, however the execution ends. At most
 * EXEC_MAX_CONCURRENT (or the team's limits.maxConcurrent) run at once; beyond that the result is a
 * ConcurrencyLimitError.
 */
export async function execute(
  ctx: RequestContext,
  input: ExecuteInput,
  granted?: string | null,
): Promise<ExecuteResult> {
  const lease =
    granted !== undefined ? granted : await acquireLease(ctx.env, ctx.team, ctx.config, ctx.clock);
  if (lease === null) {
    return failedExecution({
      name: "ConcurrencyLimitError",
      message: `Team "${ctx.team}" already runs ${ctx.config.rateLimit.maxConcurrent} executions at once; retry shortly`,
    });
  }
  try {
    return await run(ctx, input);
  } finally {
    releaseLease(ctx.env, ctx.team, lease, ctx.waitUntil);
  }
}

/**
 * One execution in its session: the isolate gets one capability, a bridge object made for this
 * execution, which counts its calls in the ledger; its network is none, or the team's egress
 * allowlist through that bridge. The result is finished (PII, session id) and audited.
 */
async function run(ctx: RequestContext, input: ExecuteInput): Promise<ExecuteResult> {
  const startedAt = Date.now();
  const { clock } = ctx;
  let session: ExecutionSession | undefined;
  try {
    session = await timed(clock, "exec_session", () => ExecutionSession.open(ctx, input.sessionId));
    const egress = ctx.teamRecord?.egress ?? [];
    const ledger = new ExecutionLedger(ctx.config.limits);
    const skills = await timed(clock, "skills", () => skillsForExecution(ctx, input.code));
    const work = new BridgeWork(ctx, ledger, { egress, session, skills: skills.records });
    const ran = await sendToSandbox(
      {
        host: sandboxHost(ctx.env, clock),
        limits: ctx.config.limits,
        bridge: new SandboxBridge(work),
        ledger,
        egress: egress.length > 0,
        skills,
        piiSafeCuts: ctx.config.pii === "tokenize",
        keepWholeResult: session.canKeepFiles,
      },
      input,
    );
    const inSession = session;
    const result = await timed(clock, "finish", () => finishInSession(ctx, inSession, ran));
    await timed(clock, "audit", () => auditExecution(ctx, inSession.id, input, startedAt, { result }));
    return result;
  } catch (thrown) {
    auditExecution(ctx, session?.id, input, startedAt, { thrown });
    throw thrown;
  }
}
