import { Hono } from "hono";
import { auditLogOf, auditNamespace } from "../audit";
import { parseAuditQuery } from "../audit/query";
import { flushAudit } from "../audit/record";
import type { AppEnv } from "../env";
import { HttpError } from "../http/errors";

/** GET /v1/audit?since=&until=&tool=&limit= — the caller's team's audit entries, newest first. */
export const auditRoutes = new Hono<AppEnv>()
  .get("/usage", async (c) => {
    const parsed = parseAuditQuery(c.req.query());
    if (!parsed.ok)
      throw new HttpError(400, "invalid_request", `Invalid query: ${parsed.problems.join("; ")}`);
    const { env, team } = c.get("context");
    const ns = auditNamespace(env);
    if (!ns)
      throw new HttpError(503, "audit_unavailable", "The audit log is not configured (no AUDIT binding)");
    await flushAudit(env, team);
    const { since = 0, until = Date.now() } = parsed.query;
    return c.json(await auditLogOf(ns, team).sandboxUsage(since, until));
  })
  .get("/", async (c) => {
    const parsed = parseAuditQuery(c.req.query());
    if (!parsed.ok)
      throw new HttpError(400, "invalid_request", `Invalid query: ${parsed.problems.join("; ")}`);
    const { env, team } = c.get("context");
    const ns = auditNamespace(env);
    if (!ns)
      throw new HttpError(503, "audit_unavailable", "The audit log is not configured (no AUDIT binding)");
    // This isolate's unsent entries first, so a caller sees its own executions that ran through it.
    await flushAudit(env, team);
    const entries = await auditLogOf(ns, team).query(parsed.query);
    return c.json({ entries });
  });
