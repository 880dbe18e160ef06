import {
  acceptedContent,
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { RunEvent, RunStatus } from "../../../durable-objects/runs/run-event";
import type { ExecuteInput } from "../../../shared/contract/execute";
import { approvalDesk } from "../approvals/desk";
import { adminToken, type GatewayEnv } from "../env";
import type { RequestContext } from "../request/context";
import { isRunId, newRunId, runHost } from "../runs/run-stub";
import { APPROVAL_ANSWER, approvalRequest, INPUT_KEY } from "./approval-questions";
import { toToolResult } from "./execute-answer";
import { declaredCapabilities } from "./spec";
import { taskView } from "./tasks";

/** What an `input_required` answer carries back (signed): the run, and the approval it asked about. */
export interface RoundState {
  run: string;
  approval: string;
}

/** An execution that has not answered within this long becomes a task (clients that declared tasks). */
const TASK_AFTER_MS = 1_000;

let signer: { secret: string; codec: RequestStateCodec<RoundState> } | undefined;

/**
 * The signer of `requestState`, keyed from the deployment's secret (ADMIN_TOKEN, else DEV_API_KEY):
 * every isolate has the same key. What the state names is checked against the caller's team anyway
 * (the run's object, the desk).
 */
export function roundStateCodec(env: GatewayEnv): RequestStateCodec<RoundState> {
  const secret = adminToken(env) ?? env.DEV_API_KEY ?? "";
  if (signer?.secret !== secret) {
    // HMAC keys longer than the hash's block are hashed first: the label and padding cost nothing.
    const key = `mcp-request-state:${secret}`.padEnd(32, "\0");
    signer = { secret, codec: createRequestStateCodec<RoundState>({ key, ttlSeconds: 900 }) };
  }
  return signer.codec;
}

/**
 * Whether an `execute` on MCP 2026-07-28 should run detached so that an approval can be asked with
 * `input_required`: the team's policy may ask, and the client declared elicitation.
 */
export function asksByRoundTrip(ctx: RequestContext, extra: ServerContext): boolean {
  if (ctx.mcpEra !== "modern" || ctx.config.approvals === null) return false;
  return declaredCapabilities(extra.mcpReq.envelope)?.elicitation !== undefined;
}

/**
 * Starts the execution detached. Answers with its result, or `input_required` for its first
 * question; for a client that declared the tasks extension, with a task when neither came within
 * TASK_AFTER_MS (the execution goes on; `tasks/get` follows it).
 */
export async function executeDetached(
  ctx: RequestContext,
  input: ExecuteInput,
  extra: ServerContext,
  asTask: boolean,
) {
  const runId = newRunId();
  const host = runHost(ctx.env, runId);
  const { team, teamRecord, keyId, requestId } = ctx;
  // The client gave up before the first answer: the run stops (afterwards, only tasks/cancel stops it).
  const onAbort = () => void host.cancel(team).catch(() => {});
  extra.mcpReq.signal.addEventListener("abort", onAbort, { once: true });
  let first: RunEvent | null;
  try {
    first = await host.start({ team, teamRecord, keyId, requestId }, input, asTask ? TASK_AFTER_MS : null);
  } finally {
    extra.mcpReq.signal.removeEventListener("abort", onAbort);
  }
  if (first) return answer(ctx, runId, first);
  const status: RunStatus | null = await host.status(team);
  if (!status) return failure("internal: the run's log is missing");
  return { resultType: "task", content: [], ...taskView(runId, status) };
}

/**
 * A retried `execute` carrying the answer to an approval: decides it at the desk, then waits for the
 * run's next question or its result (no longer than the execution may still run).
 */
export async function resumeRoundTrip(ctx: RequestContext, extra: ServerContext, state: RoundState) {
  if (!isRunId(state.run)) return failure("the requestState names no execution; run execute again");
  const content = acceptedContent(extra.mcpReq.inputResponses, INPUT_KEY, APPROVAL_ANSWER);
  await approvalDesk(ctx.env).decide(
    state.approval,
    { approve: content?.approve === true, by: "client", remember: content?.remember ?? "call" },
    ctx.team,
  );
  const next = await runHost(ctx.env, state.run).next(ctx.team, state.approval, Number.POSITIVE_INFINITY);
  if (!next) {
    return failure(
      "The execution this answer belongs to has ended or is unknown (it ran out of time, or its gateway stopped); run execute again",
    );
  }
  return answer(ctx, state.run, next);
}

async function answer(ctx: RequestContext, run: string, event: RunEvent) {
  switch (event.kind) {
    case "result":
      return toToolResult(event.result);
    case "lost":
      return failure(`${event.message}; run execute again`);
    case "progress":
      return failure("internal: a progress event is not an answer");
    case "question": {
      const codec = roundStateCodec(ctx.env);
      const result: InputRequiredResult = inputRequired({
        inputRequests: { [INPUT_KEY]: approvalRequest(event.question) },
        requestState: await codec.mint({ run, approval: event.question.id }),
      });
      return result;
    }
  }
}

function failure(message: string) {
  return { content: [{ type: "text" as const, text: message }], isError: true };
}
