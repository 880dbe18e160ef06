import { Hono } from "hono";
import { ExecuteInput } from "../../../shared/contract/execute";
import type { AppEnv } from "../env";
import { parseBody, readJson } from "../http/body";
import { scopeOf } from "../http/scope";
import { inExecutionSlot } from "../limits/concurrency";
import { execute } from "../operations";

/** REST twin of the MCP `execute` tool: the same result object, as JSON. */
export const executeRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const input = parseBody(ExecuteInput, await readJson(c));
  const scope = await scopeOf(c);
  return c.json(await inExecutionSlot(scope, () => execute(scope, input)));
});
