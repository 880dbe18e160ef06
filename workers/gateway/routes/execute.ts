import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { ExecuteInput } from "../../../shared/contract/execute";
import { planExecution } from "../context/execution-plan";
import { SseEvents } from "../execution/sse-events";
import type { AppEnv } from "../http/app-env";
import { parseBody } from "../http/body";
import { execute } from "../operations/execute";

/**
 * REST twin of the MCP `execute` tool: the same result object, as JSON; or, with `Accept:
 * text/event-stream`, as server-sent events (execution/sse-events.ts) ending with a `result` event.
 * A valid body is a lone execution (context/lone-execute.ts) whose lease admission took; any other
 * body is a 400 naming what was wrong. A client that drops the request cancels the execution.
 */
export const executeRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const ctx = c.get("context");
  if (!ctx.body?.ok) throw ctx.body?.error ?? new Error("the /v1/execute body was not read");
  const call = ctx.loneExecution;
  if (!call) {
    parseBody(ExecuteInput, ctx.body.value);
    throw new Error("a valid execute body was not taken as a lone execution");
  }
  const signal = c.req.raw.signal;
  if (!(c.req.header("Accept") ?? "").includes("text/event-stream")) {
    return c.json(
      await execute(
        ctx,
        planExecution(ctx, call.input, () => ({ signal })),
      ),
    );
  }
  return streamSSE(c, async (stream) => {
    // A client that goes away cancels the stream, whether or not the request's signal says so.
    const dropped = new AbortController();
    stream.onAbort(() => dropped.abort());
    const events = new SseEvents(stream);
    const plan = planExecution(ctx, call.input, () => ({
      events,
      liveLogs: true,
      signal: AbortSignal.any([signal, dropped.signal]),
    }));
    const result = await execute(ctx, plan);
    await events.finish("result", result);
  });
});
