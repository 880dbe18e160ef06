import { acceptedContent, type McpServer, type ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";
import {
  type ExecuteInput,
  executeInputShape,
  executeOutputShape,
} from "../../../../shared/contract/execute";
import { approvalDesk } from "../../approvals/desk";
import { callerOf } from "../../context/build";
import { planExecution } from "../../context/execution-plan";
import { executeToResult } from "../../operations/execute";
import type { ExecutionPlan } from "../../operations/plan";
import type { RequestContext } from "../../request/context";
import type { RunEvent, RunStatus } from "../../runs/run-event";
import { detachedRun, isRunId, linkToRun, newRunId } from "../../runs/run-stub";
import { APPROVAL_ANSWER, INPUT_KEY } from "../approval-questions";
import { declineConnect } from "../connect-questions";
import { toToolResult } from "../execute-answer";
import { mcpChannel, type RequestLink } from "../execute-channel";
import { asksByRoundTrip, CONNECT_KEY, failure, type RoundState, runAnswer } from "../round-trip";
import { asSpec } from "../spec";
import { clientDeclaresTasks, requestDeclaresTasks, taskView } from "../tasks";

const DESCRIPTION = `Run TypeScript (default) or JavaScript in a fresh sandbox; returns { result, logs, error?, stats }.
\`code\` is an async function body: await works; \`return\` or a last expression is the result. Process data in code and return only what matters.
In code:
- tools.<server>.<tool>(args) or callTool("server.tool", args) calls an upstream MCP tool; resolves to its structured result (or parsed text); throws on error.
- searchTools(query, { server?, detail?, limit? }) finds tools with TypeScript signatures; getToolDefinition("server.tool") gives the full declaration.
- state.get/set/delete/keys (JSON) and workspace.write/read/readBytes/list/delete (files) persist in the session; session.info(), session.history().
- skills.save({ name, description, code, inputSchema?, outputSchema? }) keeps TypeScript code (a function body of \`args\`) for the team; skills.<name>(args) runs it; search_tools finds skills.
- A tool whose search_tools entry has \`approval\` waits for a person; denied: it throws ApprovalDeniedError (catch it; do not retry).
- Promise.all runs calls in parallel. console.* goes to logs. No fetch, eval or imports.
language "python": the last expression is the result, print() goes to logs; await tools.<server>.<tool>(**kwargs), call_tool, search_tools, state, workspace, skills.`;

/** An execution that has not answered within this long becomes a task (clients that declared tasks). */
const TASK_AFTER_MS = 1_000;

/**
 * The execute tool: on 2026-07-28, detached when the client may be asked a question by round trip or
 * declared tasks (`executeDetached` below: the run is a DetachedRun object, runs/detached-run.ts);
 * else planned (context/execution-plan.ts: in a request that is
 * one execution, with the lease admission took for it) and run in this request.
 */
export function registerExecuteTool(server: McpServer, ctx: RequestContext, link: RequestLink): void {
  server.registerTool(
    "execute",
    {
      title: "Execute code",
      description: DESCRIPTION,
      inputSchema: z.object(executeInputShape),
      ...(requestDeclaresTasks(ctx) ? {} : { outputSchema: z.object(executeOutputShape) }),
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    async (input, extra) => {
      if (ctx.mcpEra === "modern") {
        const state = extra.mcpReq.requestState<RoundState>();
        if (state !== undefined) return resumeRoundTrip(ctx, extra, state);
        const asTask = clientDeclaresTasks(extra.mcpReq.envelope);
        if (asTask || (await asksByRoundTrip(ctx, extra))) return executeDetached(ctx, input, extra, asTask);
      }
      const plan = planExecution(ctx, input, (timeoutMs) => mcpChannel(ctx, link, extra, timeoutMs));
      return executeToolAnswer(ctx, plan);
    },
  );
}

/**
 * The `execute` tool's answer when it runs in this request (the SDK server's tool, or the route's
 * own path for a lone execution): an unknown sessionId is a SessionNotFoundError result; any other
 * failure is a tool error carrying its message, as the SDK makes it. A detached run's answer is its
 * stored result, shaped where it is read (`runAnswer`, mcp/round-trip.ts; mcp/tasks.ts).
 */
export async function executeToolAnswer(ctx: RequestContext, plan: ExecutionPlan) {
  try {
    return toToolResult(await executeToResult(ctx, plan));
  } catch (err) {
    return {
      content: [{ type: "text" as const, text: err instanceof Error ? err.message : String(err) }],
      isError: true,
    };
  }
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
  const run = detachedRun(ctx.env, runId);
  // The client gave up before the first answer: the run stops (afterwards, only tasks/cancel stops it).
  const onAbort = () => void run.cancel(ctx.team).catch(() => {});
  extra.mcpReq.signal.addEventListener("abort", onAbort, { once: true });
  let first: RunEvent | null;
  try {
    first = await run.start(callerOf(ctx), input, asTask ? TASK_AFTER_MS : null);
  } finally {
    extra.mcpReq.signal.removeEventListener("abort", onAbort);
  }
  if (first) return runAnswer(ctx, runId, first);
  const status: RunStatus | null = await run.status(ctx.team);
  if (!status) return failure("internal: the run's log is missing");
  return { resultType: "task", content: [], ...taskView(runId, status) };
}

/**
 * A retried `execute` carrying the answer to a question: an approval is decided at the desk (a
 * connect link needs no answer: the run waits for the connection); then it waits for the
 * run's next question or its result (no longer than the execution may still run).
 */
export async function resumeRoundTrip(ctx: RequestContext, extra: ServerContext, state: RoundState) {
  if (!isRunId(state.run)) return failure("the requestState names no execution; run execute again");
  if (state.question.startsWith("apr_")) {
    const content = acceptedContent(extra.mcpReq.inputResponses, INPUT_KEY, APPROVAL_ANSWER);
    await approvalDesk(ctx.env).decide(
      state.question,
      { approve: content?.approve === true, by: "client", remember: content?.remember ?? "call" },
      ctx.team,
    );
  }
  // A connect link needs no answer here (the run waits for the connection in the store), unless
  // the person declined it: then the run stops waiting.
  if (state.question.startsWith("cf_")) {
    const answer = asSpec("ElicitResult", extra.mcpReq.inputResponses?.[CONNECT_KEY]);
    if (answer?.action !== "accept") await declineConnect(ctx, state.question);
  }
  const run = detachedRun(ctx.env, state.run);
  await linkToRun(ctx.trace, run, ctx.team);
  const next = await run.next(ctx.team, state.question, Number.POSITIVE_INFINITY);
  if (!next) {
    return failure(
      "The execution this answer belongs to has ended or is unknown (it ran out of time, or its gateway stopped); run execute again",
    );
  }
  return runAnswer(ctx, state.run, next);
}
