import { Hono } from "hono";
import { ExecuteInput } from "../../../shared/contract/execute";
import type { AppEnv } from "../env";
import { parseBody } from "../http/body";
import { execute } from "../operations/execute";

/**
 * REST twin of the MCP `execute` tool: the same result object, as JSON. A valid body is a lone
 * execution (context/lone-execute.ts) whose lease admission took; any other body is a 400 naming
 * what was wrong.
 */
export const executeRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const ctx = c.get("context");
  if (!ctx.body?.ok) throw ctx.body?.error ?? new Error("the /v1/execute body was not read");
  const call = ctx.loneExecution;
  if (!call) {
    parseBody(ExecuteInput, ctx.body.value);
    throw new Error("a valid execute body was not taken as a lone execution");
  }
  return c.json(await execute(ctx, call.input, call.lease));
});
