import { Hono } from "hono";
import { html } from "hono/html";
import type { AuditEntry } from "../../../../durable-objects/audit/entry";
import { auditLogOf, auditNamespace } from "../../audit/store";
import { loadConfig } from "../../config";
import type { AppEnv } from "../../http/app-env";
import { TEAM_NAME } from "../../teams/schema";
import { notice, page, table, time } from "../layout";

const KINDS = ["execute", "tool_call", "approval"] as const;
const STATUSES = ["ok", "error", "cancelled"] as const;
const PAGE_SIZE = 50;

/** One team's audit log, filtered by tool, kind, status and time, newest first, 50 rows a page. */
export const auditPages = new Hono<AppEnv>().get("/", async (c) => {
  const signIn = c.get("operator");
  const q = c.req.query();
  const team = q.team || "default";
  const problems: string[] = [];
  if (!TEAM_NAME.test(team)) problems.push(`Team names match ${TEAM_NAME.source}.`);
  const kind = KINDS.find((k) => k === q.kind);
  const status = STATUSES.find((s) => s === q.status);
  const tool = q.tool?.trim() ? q.tool.trim().slice(0, 200) : undefined;
  const since = when(q.since, "From", problems);
  const until = when(q.until, "To", problems);
  const cursor = /^(\d{1,15}):(\d{1,15})$/.exec(q.before ?? "");
  const before = cursor ? { ts: Number(cursor[1]), rowid: Number(cursor[2]) } : undefined;
  const ns = auditNamespace(c.env);
  let entries: AuditEntry[] = [];
  let next: { ts: number; rowid: number } | undefined;
  if (!ns) problems.push("The audit log is off (no AUDIT binding).");
  else if (problems.length === 0) {
    const answer = await auditLogOf(ns, team).page({
      ...(since === undefined ? {} : { since }),
      ...(until === undefined ? {} : { until }),
      ...(tool ? { tool } : {}),
      ...(kind ? { kind } : {}),
      ...(status ? { status } : {}),
      ...(before ? { before } : {}),
      limit: PAGE_SIZE,
    });
    entries = answer.entries;
    next = answer.next;
  }
  const keep = new URLSearchParams(
    Object.entries({
      team,
      tool: tool ?? "",
      kind: kind ?? "",
      status: status ?? "",
      since: q.since ?? "",
      until: q.until ?? "",
    }).filter(([, v]) => v),
  );
  const loaded = loadConfig(c.env);
  const traceLink = loaded.ok ? loaded.config.tracing.link : undefined;
  /** A trace id, linked to TRACE_LINK when the deployment names a trace viewer. */
  const trace = (id: string | undefined) =>
    !id
      ? ""
      : traceLink
        ? html`<a href="${traceLink.replace("{traceId}", id)}"><code>${id.slice(0, 8)}</code></a>`
        : html`<code title="${id}">${id.slice(0, 8)}</code>`;
  const option = (value: string, current: string | undefined) =>
    html`<option value="${value}"${value === (current ?? "") ? html` selected` : ""}>${value || "any"}</option>`;
  const body = html`${problems.map((p) => notice("error", p))}
<form method="get" action="/dashboard/audit" class="row">
<label>Team <input name="team" value="${team}" required maxlength="64"></label>
<label>Tool <input name="tool" value="${tool ?? ""}" maxlength="200" placeholder="demo.list_tickets"></label>
<label>Kind <select name="kind">${["", ...KINDS].map((k) => option(k, kind))}</select></label>
<label>Status <select name="status">${["", ...STATUSES].map((s) => option(s, status))}</select></label>
<label>From (UTC) <input type="datetime-local" name="since" value="${q.since ?? ""}"></label>
<label>To (UTC) <input type="datetime-local" name="until" value="${q.until ?? ""}"></label>
<button type="submit">Filter</button>
</form>
${table(
  `Audit of ${team}`,
  [
    "When (UTC)",
    "Kind",
    "Tool",
    "Status",
    "ms",
    "Result bytes",
    "Tool calls",
    "Session",
    "Key",
    "User",
    "Worker",
    "Trace",
  ],
  entries.map((e) => [
    time(e.ts),
    e.kind,
    html`<code>${e.tool}</code>`,
    e.error ? `${e.status}: ${e.error}` : e.status,
    String(e.durationMs),
    String(e.resultBytes),
    e.toolCalls === undefined ? "" : String(e.toolCalls),
    e.sessionId ? html`<code>${e.sessionId.slice(0, 8)}</code>` : "",
    e.keyId,
    e.user ?? "",
    e.worker ?? "",
    trace(e.traceId),
  ]),
)}
${next ? html`<p><a href="/dashboard/audit?${keep.toString()}&before=${next.ts}:${next.rowid}">Older entries</a></p>` : ""}`;
  return page(c, "Audit", body, signIn, problems.length ? 400 : 200);
});

/** A datetime-local value (UTC) as ms since epoch. */
function when(raw: string | undefined, label: string, problems: string[]): number | undefined {
  if (!raw) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(raw) ? Date.parse(`${raw}Z`) : Number.NaN;
  if (Number.isNaN(ms)) {
    problems.push(`${label}: "${raw.slice(0, 40)}" is not a date and time (YYYY-MM-DDTHH:MM).`);
    return undefined;
  }
  return ms;
}
