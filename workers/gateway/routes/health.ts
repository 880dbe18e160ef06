import { Hono } from "hono";
import { loadConfig } from "../config";
import type { AppEnv, GatewayEnv } from "../env";
import { DEFAULT_TEAM } from "../teams/schema";
import { deploymentUpstreams, type ServerState, upstreamsFor } from "../upstreams";
import { VERSION } from "../version";

const startedAt = Date.now();

/**
 * Unauthenticated probes. /ready: 503 naming each problem when configuration or a binding is not
 * usable; otherwise 200, "degraded" when an upstream is stale or failing, with every upstream's
 * state (ok / stale / failing, age, tool count).
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
      admin: Boolean(c.env.ADMIN_TOKEN),
      upstreams: upstreams.servers.map((s) => s.name),
    });
  })
  .get("/live", (c) => c.json({ status: "ok" }))
  .get("/ready", async (c) => {
    const problems = bindingProblems(c.env);
    const config = loadConfig(c.env);
    if (!config.ok) problems.push(...config.problems);
    const upstreams = await deploymentUpstreams(c.env);
    problems.push(...upstreams.problems);
    if (problems.length > 0 || !config.ok) return c.json({ status: "not_ready", problems }, 503);
    const catalog = await (
      await upstreamsFor(c.env, config.config, (p) => c.executionCtx.waitUntil(p), DEFAULT_TEAM)
    ).catalog();
    const degraded = catalog.servers.some((s: ServerState) => s.state !== "ok");
    return c.json({ status: degraded ? "degraded" : "ready", upstreams: catalog.servers });
  });

function bindingProblems(env: GatewayEnv): string[] {
  const problems: string[] = [];
  if (typeof env.LOADER?.load !== "function") problems.push("LOADER: no Worker Loader binding");
  if (!env.SESSIONS) problems.push("SESSIONS: no Durable Object binding for sessions");
  if (!env.SCHEMA_CACHE) problems.push("SCHEMA_CACHE: no KV binding for the upstream schema cache");
  return problems;
}
