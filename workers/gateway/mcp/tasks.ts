import {
  acceptedContent,
  inputRequired,
  type McpServer,
  ProtocolError,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { approvalDesk } from "../approvals/desk";
import type { RequestContext } from "../request/context";
import type { RunStatus } from "../runs/run-event";
import { detachedRun, isRunId, linkToRun } from "../runs/run-stub";
import { APPROVAL_ANSWER, approvalRequest, INPUT_KEY } from "./approval-questions";
import { toToolResult } from "./execute-answer";
import { declaredCapabilities } from "./spec";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
/** How long a task and its result stay readable after it ends (the run log keeps it that long). */
export const TASK_TTL_MS = 3_600_000;
const POLL_INTERVAL_MS = 500;
const MISSING_CAPABILITY = -32021;

const TaskId = z.object({ taskId: z.string().max(100) }).loose();

/** Whether this request's client declared the tasks extension (MCP 2026-07-28 `_meta` envelope). */
export function clientDeclaresTasks(meta: unknown): boolean {
  const extensions = declaredCapabilities(meta)?.extensions;
  return extensions !== undefined && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/**
 * Whether the request's client declared the tasks extension, read from the request's envelope: such a
 * request's `execute` is listed and served without an output schema, since the SDK holds a tool that
 * has one to a structured result, and a task's first answer has none (its result comes by tasks/get).
 */
export function requestDeclaresTasks(ctx: RequestContext): boolean {
  return ctx.mcpEra === "modern" && clientDeclaresTasks(ctx.messages?.meta);
}

/** A task's state as the tasks extension shows it (`tasks/get`, and the CreateTaskResult of tools/call). */
export function taskView(runId: string, status: RunStatus) {
  const last = status.last;
  const base = {
    taskId: runId,
    createdAt: new Date(status.createdAt).toISOString(),
    lastUpdatedAt: new Date(last?.at ?? status.createdAt).toISOString(),
    ttlMs: TASK_TTL_MS,
    pollIntervalMs: POLL_INTERVAL_MS,
  };
  switch (status.state) {
    case "completed":
      return {
        ...base,
        status: "completed" as const,
        statusMessage: "done",
        result: { resultType: "complete", ...(last?.kind === "result" ? toToolResult(last.result) : {}) },
      };
    case "cancelled":
      return { ...base, status: "cancelled" as const, statusMessage: "cancelled" };
    case "lost":
      return {
        ...base,
        status: "failed" as const,
        statusMessage: last?.kind === "lost" ? last.message : "lost",
        error: { code: -32603, message: last?.kind === "lost" ? last.message : "the execution was lost" },
      };
    case "input_required":
      return {
        ...base,
        status: "input_required" as const,
        statusMessage: status.connect
          ? `waiting for the user to connect ${status.connect.server}`
          : "waiting for approval",
        ...(status.question ? { inputRequests: { [INPUT_KEY]: approvalRequest(status.question) } } : {}),
        ...(status.connect
          ? {
              inputRequests: {
                connect: inputRequired.elicitUrl({
                  url: status.connect.url,
                  message: status.connect.message,
                }),
              },
            }
          : {}),
      };
    default:
      return {
        ...base,
        status: "working" as const,
        ...(last?.kind === "progress" ? { statusMessage: last.message } : {}),
      };
  }
}

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` of the tasks extension (2026-07-28) over the objects
 * that run detached executions (runs/detached-run.ts): the task id is the run id; a task is the team's
 * alone; an approval the run waits on shows as `input_required` and is answered by `tasks/update`.
 */
export function registerTasks(server: McpServer, ctx: RequestContext): void {
  const low = server.server;
  low.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  const status = async (taskId: string, extra: ServerContext): Promise<RunStatus> => {
    if (!clientDeclaresTasks(extra.mcpReq.envelope)) {
      throw new ProtocolError(MISSING_CAPABILITY, "Missing required client capability", {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
    }
    const run = isRunId(taskId) ? detachedRun(ctx.env, taskId) : null;
    const found: RunStatus | null = run ? await run.status(ctx.team) : null;
    if (!run || !found) throw new ProtocolError(-32602, "Failed to retrieve task: Task not found");
    await linkToRun(ctx.trace, run, ctx.team);
    return found;
  };
  low.setRequestHandler("tasks/get", { params: TaskId }, async ({ taskId }, extra) => ({
    resultType: "complete",
    ...taskView(taskId, await status(taskId, extra)),
  }));
  low.setRequestHandler("tasks/cancel", { params: TaskId }, async ({ taskId }, extra) => {
    await status(taskId, extra);
    await detachedRun(ctx.env, taskId).cancel(ctx.team);
    return { resultType: "complete" };
  });
  // The SDK lifts `inputResponses` out of every 2026-07-28 request's params (the retry fields of
  // SEP-2322) into `ctx.mcpReq.inputResponses`, so tasks/update's answers are read from there.
  low.setRequestHandler("tasks/update", { params: TaskId }, async ({ taskId }, extra) => {
    const { question } = await status(taskId, extra);
    const inputResponses = extra.mcpReq.inputResponses;
    if (inputResponses === undefined) throw new ProtocolError(-32602, "tasks/update needs inputResponses");
    const answer = acceptedContent(inputResponses, INPUT_KEY, APPROVAL_ANSWER);
    // Keys for a question no longer pending are ignored (the specification's rule for tasks/update).
    if (question && inputResponses[INPUT_KEY] !== undefined) {
      await approvalDesk(ctx.env).decide(
        question.id,
        { approve: answer?.approve === true, by: "client", remember: answer?.remember ?? "call" },
        ctx.team,
      );
    }
    return { resultType: "complete" };
  });
}
