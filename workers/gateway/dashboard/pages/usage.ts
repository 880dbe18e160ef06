import { Hono } from "hono";
import { html } from "hono/html";
import { auditLogOf, auditNamespace } from "../../audit/store";
import type { AppEnv } from "../../http/app-env";
import { barChart } from "../chart";
import { notice, page, table } from "../layout";

const DAY_MS = 86_400_000;

/**
 * A team's usage per day from its audit log's aggregates (one object call that reads at most a row
 * per hour, per day and tool, and per duration bucket: never the entries themselves).
 */
export const usagePages = new Hono<AppEnv>().get("/", async (c) => {
  const team = c.req.param("team") ?? "";
  const signIn = c.get("operator");
  const days = c.req.query("days") === "30" ? 30 : 7;
  const ns = auditNamespace(c.env);
  if (!ns)
    return page(
      c,
      `Usage of ${team}`,
      notice("error", "The audit log is off (no AUDIT binding)."),
      signIn,
      503,
    );
  const now = Date.now();
  const usage = await auditLogOf(ns, team).usage(now - (days - 1) * DAY_MS, now);
  const byDay = new Map(usage.days.map((d) => [d.day, d]));
  // Every day of the range, those without executions at zero.
  const range = Array.from({ length: days }, (_, i) =>
    new Date(now - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
  const other = days === 7 ? 30 : 7;
  const body = html`<p>Last ${days} days (UTC) · <a href="/dashboard/teams/${encodeURIComponent(team)}/usage?days=${other}">last ${other} days</a> · <a href="/dashboard/audit?team=${encodeURIComponent(team)}">audit</a></p>
${barChart(
  `Executions per day (${team})`,
  range.map((day) => ({
    label: day,
    value: byDay.get(day)?.executions ?? 0,
    errors: byDay.get(day)?.errors ?? 0,
  })),
  "executions",
)}
${barChart(
  `Tool calls per day (${team})`,
  range.map((day) => ({ label: day, value: byDay.get(day)?.toolCalls ?? 0 })),
  "tool calls",
)}
${barChart(
  `p95 duration per day, ms (${team})`,
  range.map((day) => ({ label: day, value: byDay.get(day)?.p95Ms ?? 0 })),
  "ms",
)}
${table(
  "Per day",
  ["Day", "Executions", "Errors", "p50 ms", "p95 ms", "Tool calls"],
  usage.days.map((d) => [
    d.day,
    String(d.executions),
    String(d.errors),
    d.p50Ms === null ? "—" : `≈${d.p50Ms}`,
    d.p95Ms === null ? "—" : `≈${d.p95Ms}`,
    String(d.toolCalls),
  ]),
)}
${table(
  "Top tools",
  ["Tool", "Calls", "Errors"],
  usage.topTools.map((t) => [html`<code>${t.tool}</code>`, String(t.calls), String(t.errors)]),
)}
<p class="muted">Durations are read from a histogram (quarter-octave buckets): within ~19%.</p>`;
  return page(c, `Usage of ${team}`, body, signIn);
});
