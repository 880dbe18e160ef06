import { Hono } from "hono";
import { ExecuteInput } from "../../../shared/contract/execute";
import { executeCode } from "../../sandbox/executor";
import type { AppEnv } from "../env";
import { parseBody, readJson } from "../http/body";
import { requireConfig } from "../http/config";

/** REST twin of the MCP `execute` tool: the same result object, as JSON. */
export const executeRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const config = requireConfig(c);
  const input = parseBody(ExecuteInput, await readJson(c));
  return c.json(await executeCode({ loader: c.env.LOADER, limits: config.limits }, input));
});
