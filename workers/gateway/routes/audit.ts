import { Hono } from "hono";
import { auditLogOf, auditNamespace } from "../audit";
import { parseAuditQuery } from "../audit/query";
import type { AppEnv } from "../env";
import { HttpError } from "../http/errors";

/** GET /v1/audit?since=&until=&tool=&limit= — the caller's team's audit entries, newest first. */
export const auditRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const parsed = parseAuditQuery(c.req.query());
  if (!parsed.ok) throw new HttpError(400, "invalid_request", `Invalid query: ${parsed.problems.join("; ")}`);
  const ns = auditNamespace(c.env);
  if (!ns)
    throw new HttpError(503, "audit_unavailable", "The audit log is not configured (no AUDIT binding)");
  const entries = await auditLogOf(ns, c.get("team")).query(parsed.query);
  return c.json({ entries });
});
