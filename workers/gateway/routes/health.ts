import { Hono } from "hono";
import { loadConfig } from "../config";
import type { AppEnv } from "../env";
import { VERSION } from "../version";

const startedAt = Date.now();

/** Unauthenticated probes: liveness, readiness (503 with the reasons) and a summary. */
export const healthRoutes = new Hono<AppEnv>()
  .get("/health", (c) => {
    const config = loadConfig(c.env);
    return c.json({
      status: "ok",
      version: VERSION,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      config: config.ok ? "valid" : "invalid",
      auth: config.ok && config.config.devApiKey ? "api-key" : "open",
    });
  })
  .get("/live", (c) => c.json({ status: "ok" }))
  .get("/ready", (c) => {
    const problems = readinessProblems(c.env);
    return problems.length === 0
      ? c.json({ status: "ready" })
      : c.json({ status: "not_ready", problems }, 503);
  });

function readinessProblems(env: AppEnv["Bindings"]): string[] {
  const problems: string[] = [];
  const config = loadConfig(env);
  if (!config.ok) problems.push(...config.problems);
  if (!env.LOADER || typeof env.LOADER.load !== "function") problems.push("LOADER: no Worker Loader binding");
  if (!env.SESSIONS) problems.push("SESSIONS: no Durable Object binding for sessions");
  return problems;
}
