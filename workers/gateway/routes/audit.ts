import { type Context, Hono } from "hono";
import { auditLogOf, auditNamespace } from "../audit";
import { parseAuditQuery } from "../audit/query";
import { flushAudit } from "../audit/record";
import type { AppEnv } from "../http/app-env";
import { HttpError } from "../http/errors";

/** The caller's team's audit log and the query string read as an audit query; unsent entries flushed first. */
async function teamAudit(c: Context<AppEnv>) {
  const parsed = parseAuditQuery(c.req.query());
  if (!parsed.ok) throw new HttpError(400, "invalid_request", `Invalid query: ${parsed.problems.join("; ")}`);
  const { env, team } = c.get("context");
  const ns = auditNamespace(env);
  if (!ns)
    throw new HttpError(503, "audit_unavailable", "The audit log is not configured (no AUDIT binding)");
  // This isolate's unsent entries first, so a caller sees its own executions that ran through it.
  await flushAudit(env, team, (p) => c.executionCtx.waitUntil(p));
  return { log: auditLogOf(ns, team), query: parsed.query };
}

/**
 * GET /v1/audit?since=&until=&tool=&limit= — the caller's team's audit entries, newest first;
 * GET /v1/audit/usage?since=&until= — its executions and the Dynamic Workers they used (docs/cost.md).
 */
export const auditRoutes = new Hono<AppEnv>()
  .get("/usage", async (c) => {
    const { log, query } = await teamAudit(c);
    return c.json(await log.sandboxUsage(query.since ?? 0, query.until ?? Date.now()));
  })
  .get("/", async (c) => {
    const { log, query } = await teamAudit(c);
    return c.json({ entries: await log.query(query) });
  });
