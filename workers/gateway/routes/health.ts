import { Hono } from "hono";
import { loadConfig } from "../config";
import { adminToken, type GatewayEnv } from "../env";
import { sandboxHostOverdueSince } from "../execution/send-to-sandbox";
import type { AppEnv } from "../http/app-env";
import { DEFAULT_TEAM } from "../teams/schema";
import { deploymentUpstreams, type ServerState, serverStates } from "../upstreams";
import { VERSION } from "../version";

const startedAt = Date.now();

/**
 * Unauthenticated probes. /live: the gateway answers; with a separate sandbox host (the local
 * stack) that missed an execution's deadline, `sandboxHost.overdueSince` (the supervisor's cue to
 * restart it). /ready: 503 naming each problem when configuration or a binding is not usable;
 * otherwise 200, "degraded" when an upstream is stale or failing, with every upstream's state (ok /
 * stale / failing, age, tool count).
 */
export const healthRoutes = new Hono<AppEnv>()
  .get("/health", async (c) => {
    const config = loadConfig(c.env);
    const upstreams = await deploymentUpstreams(c.env);
    return c.json({
      status: "ok",
      version: VERSION,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      config: config.ok && upstreams.problems.length === 0 ? "valid" : "invalid",
      auth: "api-key",
      devApiKey: config.ok && config.config.devApiKey !== undefined,
      admin: adminToken(c.env) !== undefined,
      upstreams: upstreams.servers.map((s) => s.name),
    });
  })
  .get("/live", (c) => {
    const overdue = sandboxHostOverdueSince();
    if (overdue === undefined) return c.json({ status: "ok" });
    return c.json({ status: "ok", sandboxHost: { overdueSince: new Date(overdue).toISOString() } });
  })
  .get("/ready", async (c) => {
    const problems = bindingProblems(c.env);
    const loaded = loadConfig(c.env);
    if (!loaded.ok) problems.push(...loaded.problems);
    problems.push(...(await deploymentUpstreams(c.env)).problems);
    if (problems.length > 0 || !loaded.ok) return c.json({ status: "not_ready", problems }, 503);
    const servers = await serverStates(c.env, loaded.config, DEFAULT_TEAM, (p) =>
      c.executionCtx.waitUntil(p),
    );
    const degraded = servers.some((s: ServerState) => s.state !== "ok");
    return c.json({ status: degraded ? "degraded" : "ready", upstreams: servers });
  });

function bindingProblems(env: GatewayEnv): string[] {
  const problems: string[] = [];
  if (typeof env.LOADER?.load !== "function") problems.push("LOADER: no Worker Loader binding");
  if (!env.SESSIONS) problems.push("SESSIONS: no Durable Object binding for sessions");
  if (!env.SCHEMA_CACHE) problems.push("SCHEMA_CACHE: no KV binding for the upstream schema cache");
  return problems;
}
