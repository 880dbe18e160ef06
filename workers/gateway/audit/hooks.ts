import type { AuditEntry } from "../../../durable-objects/audit/entry";
import type { ExecuteInput, ExecuteResult } from "../../../shared/contract/execute";
import type { BridgeResult } from "../../../shared/contract/sandbox";
import type { RequestContext } from "../request/context";
import { jsonBytes, sha256Hex, utf8Bytes } from "./hash";
import { recordAudit } from "./record";

const SAFE_ID = /^[\w.:-]{1,128}$/;
const ERROR_NAME = /^[A-Za-z_$][\w$]{0,63}$/;
const TOOL_NAME = /^[\w.$-]{1,200}$/;
const TRACE_ID = /^[0-9a-f]{32}$/;

/** Who an entry is for; ids that are not plain identifiers are left out rather than stored. */
export interface AuditActor {
  requestId: string;
  /** the request's trace id, when it has one */
  traceId?: string | undefined;
  team: string;
  keyId: string;
  /** who the request acted as (`ctx.user`) */
  user: string;
  sessionId?: string | undefined;
}

/**
 * One "execute" entry: args = { code, language, timeoutMs } hashed, result sized, error name only;
 * status `cancelled` for an execution its client cancelled.
 */
export function auditExecution(
  ctx: RequestContext,
  sessionId: string | undefined,
  input: ExecuteInput,
  startedAt: number,
  outcome: { result: ExecuteResult } | { thrown: unknown } | { cancelled: true },
  /** the Dynamic Worker that ran it (AuditEntry.worker); none when it never reached one */
  worker?: string,
): void {
  const durationMs = Date.now() - startedAt;
  const { code, language, timeoutMs } = input;
  const failure =
    "cancelled" in outcome
      ? "CancelledError"
      : "thrown" in outcome
        ? errorName(outcome.thrown)
        : outcome.result.error?.name;
  recordAudit(ctx.env, ctx.waitUntil, () =>
    build(
      { ...ctx, sessionId },
      {
        ts: startedAt,
        kind: "execute",
        tool: "execute",
        args: { code, language, timeoutMs },
        failure,
        ...("cancelled" in outcome ? { status: "cancelled" as const } : {}),
        durationMs,
        result: "result" in outcome ? outcome.result : undefined,
        toolCalls: "result" in outcome ? outcome.result.stats.toolCalls : 0,
        ...(worker ? { worker } : {}),
      },
    ),
  );
}

/** One "tool_call" entry for a call from sandbox code through the tool bridge. */
export function auditToolCall(
  env: object,
  waitUntil: (promise: Promise<unknown>) => void,
  actor: AuditActor,
  call: {
    name: unknown;
    args: unknown;
    startedAt: number;
    outcome: BridgeResult;
    /** the result's JSON text when the caller already made it (sized from it, not serialized again) */
    resultJson?: string | undefined;
  },
): void {
  const durationMs = Date.now() - call.startedAt;
  const tool = typeof call.name === "string" && TOOL_NAME.test(call.name) ? call.name : "(invalid name)";
  recordAudit(env, waitUntil, () =>
    build(actor, {
      ts: call.startedAt,
      kind: "tool_call",
      tool,
      args: call.args,
      failure: call.outcome.ok ? undefined : call.outcome.error.name,
      durationMs,
      result: call.outcome.ok ? call.outcome.value : undefined,
      resultJson: call.outcome.ok ? call.resultJson : undefined,
    }),
  );
}

/** One "approval" entry: the call's tool and argument hash, how it was decided and by whom, the wait. */
export function auditApproval(
  env: object,
  waitUntil: (promise: Promise<unknown>) => void,
  actor: AuditActor,
  approval: {
    tool: string;
    args: unknown;
    startedAt: number;
    /** the error the code got (`ApprovalDeniedError`), none when approved */
    failure: string | undefined;
    decidedBy: NonNullable<AuditEntry["decidedBy"]>;
  },
): void {
  const tool = TOOL_NAME.test(approval.tool) ? approval.tool : "(invalid name)";
  recordAudit(env, waitUntil, () =>
    build(actor, {
      ts: approval.startedAt,
      kind: "approval",
      tool,
      args: approval.args,
      failure: approval.failure,
      durationMs: Date.now() - approval.startedAt,
      result: undefined,
      decidedBy: approval.decidedBy,
    }),
  );
}

/** Hashing and sizing run here, inside waitUntil, after the caller has had its answer. */
async function build(
  actor: AuditActor,
  e: {
    ts: number;
    kind: AuditEntry["kind"];
    tool: string;
    args: unknown;
    failure: string | undefined;
    /** instead of ok / error from `failure` */
    status?: AuditEntry["status"];
    durationMs: number;
    result: unknown;
    resultJson?: string | undefined;
    toolCalls?: number;
    decidedBy?: AuditEntry["decidedBy"];
    worker?: string;
  },
): Promise<AuditEntry[]> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return [
    {
      ts: e.ts,
      requestId: SAFE_ID.test(actor.requestId) ? actor.requestId : "invalid",
      ...(actor.traceId && TRACE_ID.test(actor.traceId) ? { traceId: actor.traceId } : {}),
      team: actor.team,
      keyId: actor.keyId,
      ...(actor.user && actor.user.length <= 200 ? { user: actor.user } : {}),
      ...(actor.sessionId && SAFE_ID.test(actor.sessionId) ? { sessionId: actor.sessionId } : {}),
      kind: e.kind,
      tool: e.tool,
      argsSha256: await sha256Hex(e.args),
      status: e.status ?? (e.failure === undefined ? "ok" : "error"),
      ...(e.failure === undefined ? {} : { error: ERROR_NAME.test(e.failure) ? e.failure : "Error" }),
      durationMs: Math.max(0, Math.round(e.durationMs)),
      resultBytes: resultBytes(e),
      ...(e.toolCalls === undefined ? {} : { toolCalls: e.toolCalls }),
      ...(e.decidedBy === undefined ? {} : { decidedBy: e.decidedBy }),
      ...(e.worker === undefined ? {} : { worker: e.worker }),
    },
  ];
}

/** UTF-8 bytes of the result's JSON, from the text when the caller made it; 0 without a result. */
function resultBytes(e: { result: unknown; resultJson?: string | undefined }): number {
  if (e.result === undefined) return 0;
  return e.resultJson === undefined ? jsonBytes(e.result) : utf8Bytes(e.resultJson);
}

function errorName(err: unknown): string {
  return err instanceof Error ? err.name : "Error";
}
