import { Hono } from "hono";
import { ExecuteInput } from "../../../shared/contract/execute";
import type { AppEnv } from "../env";
import { parseBody, readJson } from "../http/body";
import { scopeOf } from "../http/scope";
import { inExecutionSlot } from "../limits/concurrency";
import { execute } from "../operations";
import { timed } from "../timing/clock";

/** REST twin of the MCP `execute` tool: the same result object, as JSON. */
export const executeRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const clock = c.get("clock");
  const input = await timed(clock, "body", async () => parseBody(ExecuteInput, await readJson(c)), false);
  const scope = await timed(clock, "scope", () => scopeOf(c));
  return c.json(await inExecutionSlot(scope, () => execute(scope, input)));
});
