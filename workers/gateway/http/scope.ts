import type { Context } from "hono";
import type { AppEnv } from "../env";
import type { RequestScope } from "../operations";
import { loadTeam, withTeamLimits } from "../teams/resolve";
import { requireConfig } from "./config";

/**
 * The authenticated caller's scope: its team, and the deployment limits with the team's overrides
 * (worked out once per request: the rate limiter needs them before the route does). `mcpSessionId`
 * only when the MCP route has checked that session.
 */
export async function scopeOf(c: Context<AppEnv>, mcpSessionId?: string): Promise<RequestScope> {
  const team = c.get("team");
  let config = c.get("teamConfig");
  if (config === undefined) {
    config = withTeamLimits(requireConfig(c), await loadTeam(c.env, team));
    c.set("teamConfig", config);
  }
  return {
    env: c.env,
    config,
    requestId: c.get("requestId"),
    team,
    keyId: c.get("keyId"),
    via: c.req.path === "/mcp" ? "mcp" : "rest",
    ...(mcpSessionId ? { mcpSessionId } : {}),
    ...(c.get("slot") ? { slot: c.get("slot") } : {}),
    ...(c.get("clock") ? { clock: c.get("clock") } : {}),
    waitUntil: (p) => c.executionCtx.waitUntil(p),
  };
}
