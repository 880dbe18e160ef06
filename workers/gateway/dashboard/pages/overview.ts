import { Hono } from "hono";
import { html } from "hono/html";
import { auditLogOf, auditNamespace } from "../../audit/store";
import type { AppEnv } from "../../http/app-env";
import { requireConfig } from "../../http/config";
import { listApprovals, listTeams } from "../../routes/admin-service";
import { DEFAULT_TEAM } from "../../teams/schema";
import { serverStates } from "../../upstreams";
import { adminCall } from "../admin-call";
import { barChart } from "../chart";
import { notice, page, table } from "../layout";

const HOUR_MS = 3_600_000;
/** Teams whose last 24 hours are summed on the overview: one audit-object call each. */
const CHARTED_TEAMS = 50;

/** The deployment at a glance: teams, the last 24 hours' executions and errors, upstreams, waiting approvals. */
export const overviewPages = new Hono<AppEnv>().get("/", async (c) => {
  const signIn = c.get("operator");
  const [teams, approvals] = await Promise.all([
    adminCall(() => listTeams(c.env, { limit: 1000 })),
    adminCall(() => listApprovals(c.env, { limit: 500 })),
  ]);
  const names = [
    DEFAULT_TEAM,
    ...(teams.ok ? teams.data.teams.map((t) => t.name) : []).filter((n) => n !== DEFAULT_TEAM),
  ];
  const now = Date.now();
  const first = Math.floor(now / HOUR_MS) - 23;
  const hours = Array.from({ length: 24 }, (_, i) => ({ hour: first + i, executions: 0, errors: 0 }));
  const perTeam = new Map<string, { executions: number; errors: number }>();
  const ns = auditNamespace(c.env);
  if (ns) {
    const usages = await Promise.all(
      names
        .slice(0, CHARTED_TEAMS)
        .map(async (team) => ({ team, usage: await auditLogOf(ns, team).usage(first * HOUR_MS, now) })),
    );
    for (const { team, usage } of usages) {
      const total = { executions: 0, errors: 0 };
      for (const h of usage.hours) {
        const slot = hours[Math.floor(h.hour / HOUR_MS) - first];
        if (!slot) continue;
        slot.executions += h.executions;
        slot.errors += h.errors;
        total.executions += h.executions;
        total.errors += h.errors;
      }
      perTeam.set(team, total);
    }
  }
  const servers = await serverStates(c.env, requireConfig(c), DEFAULT_TEAM, (p) =>
    c.executionCtx.waitUntil(p),
  ).catch(() => []);
  const pending = approvals.ok ? approvals.data.pending.length : 0;
  const executions = hours.reduce((n, h) => n + h.executions, 0);
  const errors = hours.reduce((n, h) => n + h.errors, 0);
  const body = html`${teams.ok ? "" : notice("error", teams.message)}
<div class="cards">
<div class="card">Teams<b>${names.length}</b></div>
<div class="card">Executions, 24 h<b>${executions}</b></div>
<div class="card">Errors, 24 h<b>${errors}</b></div>
<div class="card">Approvals waiting<b><a href="/dashboard/approvals">${pending}</a></b></div>
</div>
${barChart(
  "Executions per hour, last 24 hours, all teams",
  hours.map((h) => ({
    label: `${new Date(h.hour * HOUR_MS).toISOString().slice(11, 13)}:00`,
    value: h.executions,
    errors: h.errors,
  })),
  "executions",
)}
${names.length > CHARTED_TEAMS ? html`<p class="muted">Summed over the first ${CHARTED_TEAMS} teams.</p>` : ""}
${table(
  "Teams, last 24 hours",
  ["Team", "Executions", "Errors", ""],
  names
    .slice(0, CHARTED_TEAMS)
    .map((n) => [
      html`<a href="/dashboard/teams/${encodeURIComponent(n)}">${n}</a>`,
      String(perTeam.get(n)?.executions ?? 0),
      String(perTeam.get(n)?.errors ?? 0),
      html`<a href="/dashboard/teams/${encodeURIComponent(n)}/usage">usage</a>`,
    ]),
)}
${table(
  "Upstreams (the deployment's own)",
  ["Server", "State", "Tools", "Detail"],
  servers.map((s) => [s.name, s.state, String(s.tools), s.error ?? ""]),
)}`;
  return page(c, "Overview", body, signIn);
});
