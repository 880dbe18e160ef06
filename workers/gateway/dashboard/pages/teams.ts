import { type Context, Hono } from "hono";
import { html } from "hono/html";
import type { AppEnv } from "../../http/app-env";
import { requireConfig } from "../../http/config";
import { getTeam, listTeams, saveTeam } from "../../routes/admin-service";
import type { TeamRecord } from "../../teams/schema";
import { serverStates } from "../../upstreams";
import { adminCall } from "../admin-call";
import { csrfField, notice, page, table } from "../layout";
import { connectionPages } from "./connections";
import { keyPages, keysSection } from "./keys";
import { sessionPages } from "./sessions";
import { skillPages } from "./skills";
import { usagePages } from "./usage";

const CONFIG_EXAMPLE = '{\n  "engine": "quickjs",\n  "limits": { "requestsPerMinute": 600 }\n}';
/** The record's fields an operator edits (the admin API's TeamInput); name and times are the store's. */
const editable = ({ name: _n, createdAt: _c, updatedAt: _u, ...rest }: TeamRecord) => rest;

/** Teams: the list, a new team, and each team's page (config, keys, and links to its usage, skills, sessions). */
export const teamPages = new Hono<AppEnv>()
  .get("/", (c) => teamList(c))
  .post("/", async (c) => {
    const form = await c.req.parseBody();
    const name = String(form.name ?? "").trim();
    const config = parseConfig(String(form.config ?? "").trim() || "{}");
    if (!config.ok) return teamList(c, config.error, name, String(form.config ?? ""));
    const exists = await adminCall(() => getTeam(c.env, name));
    if (exists.ok)
      return teamList(
        c,
        `Team "${name}" exists already: edit it on its page.`,
        name,
        String(form.config ?? ""),
      );
    const made = await adminCall(() => saveTeam(c.env, name, config.value, waitUntil(c)));
    if (!made.ok) return teamList(c, made.message, name, String(form.config ?? ""));
    return c.redirect(`/dashboard/teams/${encodeURIComponent(name)}?saved=created`, 303);
  })
  .get("/:team", (c) => teamPage(c))
  .post("/:team", async (c) => {
    const team = c.req.param("team");
    const form = await c.req.parseBody();
    const text = String(form.config ?? "");
    const config = parseConfig(text);
    if (!config.ok) return teamPage(c, config.error, text);
    const saved = await adminCall(() => saveTeam(c.env, team, config.value, waitUntil(c)));
    if (!saved.ok) return teamPage(c, saved.message, text);
    const { warnings } = saved.data.team;
    if (warnings?.length) return teamPage(c, undefined, undefined, warnings);
    return c.redirect(`/dashboard/teams/${encodeURIComponent(team)}?saved=config`, 303);
  })
  .route("/:team/keys", keyPages)
  .route("/:team/usage", usagePages)
  .route("/:team/skills", skillPages)
  .route("/:team/sessions", sessionPages)
  .route("/:team/connections", connectionPages);

async function teamList(c: Context<AppEnv>, error?: string, name = "", config = CONFIG_EXAMPLE) {
  const signIn = c.get("operator");
  const cursor = c.req.query("cursor");
  const listed = await adminCall(() => listTeams(c.env, { limit: 100, cursor }));
  const names = listed.ok ? listed.data.teams.map((t) => t.name) : [];
  const body = html`${error ? notice("error", error) : ""}
${listed.ok ? "" : notice("error", listed.message)}
${table(
  "Teams",
  ["Team", "Pages"],
  names.map((n) => [
    html`<a href="/dashboard/teams/${encodeURIComponent(n)}">${n}</a>`,
    html`<a href="/dashboard/teams/${encodeURIComponent(n)}/usage">usage</a> · <a href="/dashboard/audit?team=${encodeURIComponent(n)}">audit</a> · <a href="/dashboard/teams/${encodeURIComponent(n)}/skills">skills</a> · <a href="/dashboard/teams/${encodeURIComponent(n)}/sessions">sessions</a>`,
  ]),
)}
${listed.ok && listed.data.cursor ? html`<p><a href="/dashboard/teams?cursor=${encodeURIComponent(listed.data.cursor)}">Next page</a></p>` : ""}
<p class="muted">Team <code>default</code> is the deployment's own (DEV_API_KEY, MCP_SERVERS) until a record of that name is stored: its <a href="/dashboard/teams/default/usage">usage</a>, <a href="/dashboard/audit?team=default">audit</a>, <a href="/dashboard/teams/default/skills">skills</a> and <a href="/dashboard/teams/default/sessions">sessions</a>.</p>
<h2>New team</h2>
<form method="post" action="/dashboard/teams">${csrfField(signIn)}
<label>Name <input name="name" required maxlength="64" value="${name}" pattern="[a-z][a-z0-9_\\-]{0,31}"></label>
<label>Configuration (JSON, as <code>PUT /admin/teams/{name}</code> takes it: servers, allow, deny, limits, egress, pii, approvals, engine) <textarea name="config" spellcheck="false">${config}</textarea></label>
<p><button type="submit">Create team</button></p>
</form>`;
  return page(c, "Teams", body, signIn, error ? 400 : 200);
}

async function teamPage(c: Context<AppEnv>, error?: string, text?: string, warnings?: string[]) {
  const team = c.req.param("team") ?? "";
  const signIn = c.get("operator");
  const record = await adminCall(() => getTeam(c.env, team));
  if (!record.ok && record.status !== 404)
    return page(c, `Team ${team}`, notice("error", record.message), signIn, 400);
  const saved = c.req.query("saved");
  const config = text ?? (record.ok ? JSON.stringify(editable(record.data), null, 2) : "{}");
  const body = html`${error ? notice("error", error) : ""}
${saved === "created" ? notice("ok", "Team created.") : saved === "config" ? notice("ok", "Configuration saved.") : ""}
${warnings ? notice("error", `Saved, with warnings: ${warnings.join(" ")}`) : ""}
${record.ok ? "" : notice("error", record.message)}
<p><a href="/dashboard/teams/${encodeURIComponent(team)}/usage">Usage</a> · <a href="/dashboard/audit?team=${encodeURIComponent(team)}">Audit</a> · <a href="/dashboard/teams/${encodeURIComponent(team)}/skills">Skills</a> · <a href="/dashboard/teams/${encodeURIComponent(team)}/sessions">Sessions</a> · <a href="/dashboard/approvals?team=${encodeURIComponent(team)}">Approvals</a> · <a href="/dashboard/teams/${encodeURIComponent(team)}/connections">Connections</a></p>
<h2>Configuration</h2>
<form method="post" action="/dashboard/teams/${encodeURIComponent(team)}">${csrfField(signIn)}
<label>servers, allow, deny, limits, egress, pii, approvals, engine (JSON; checked as the admin API checks it) <textarea name="config" spellcheck="false">${config}</textarea></label>
<p><button type="submit">Save configuration</button></p>
</form>
${record.ok ? await upstreamSection(c, team) : ""}
${record.ok ? await keysSection(c, team) : ""}`;
  return page(c, `Team ${team}`, body, signIn, error ? 400 : record.ok ? 200 : 404);
}

/** The team's upstreams as its executions see them (KV-cached catalog; a failing one with its error). */
async function upstreamSection(c: Context<AppEnv>, team: string) {
  const servers = await serverStates(c.env, requireConfig(c), team, (p) => c.executionCtx.waitUntil(p)).catch(
    (err: unknown) => err as Error,
  );
  if (servers instanceof Error) return html`<h2>Upstreams</h2>${notice("error", servers.message)}`;
  return html`<h2>Upstreams</h2>
${table(
  "Upstreams",
  ["Server", "State", "Tools", "Detail"],
  servers.map((s) => [s.name, s.state, String(s.tools), s.error ?? ""]),
)}`;
}

const waitUntil = (c: Context<AppEnv>) => (promise: Promise<unknown>) => c.executionCtx.waitUntil(promise);

function parseConfig(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.length > 200_000) return { ok: false, error: "The configuration is over 200,000 characters." };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: `The configuration is not JSON: ${(err as Error).message}` };
  }
}
