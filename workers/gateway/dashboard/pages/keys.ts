import { type Context, Hono } from "hono";
import { html } from "hono/html";
import type { AppEnv } from "../../http/app-env";
import { createKey, listKeys, revokeKey } from "../../routes/admin-service";
import { adminCall } from "../admin-call";
import { ago, csrfField, notice, page, table, time } from "../layout";

/** A team's API keys: make one (shown once, with the client lines filled in), revoke one (after a confirmation). */
export const keyPages = new Hono<AppEnv>()
  .post("/", async (c) => {
    const team = c.req.param("team") ?? "";
    const signIn = c.get("operator");
    const form = await c.req.parseBody();
    const user = String(form.user ?? "").trim();
    const made = await adminCall(() =>
      createKey(c.env, team, { name: String(form.name ?? "").trim(), ...(user ? { user } : {}) }),
    );
    if (!made.ok)
      return page(
        c,
        `New key for ${team}`,
        html`${notice("error", made.message)}<p><a href="/dashboard/teams/${encodeURIComponent(team)}">Back to the team</a></p>`,
        signIn,
        400,
      );
    const url = `${new URL(c.req.url).origin}/mcp`;
    const { key } = made.data;
    const claude = `claude mcp add --transport http code-gateway ${url} --header "Authorization: Bearer ${key}"`;
    const cursor = JSON.stringify(
      { mcpServers: { "code-gateway": { url, headers: { Authorization: `Bearer ${key}` } } } },
      null,
      2,
    );
    const body = html`${notice("ok", `Key "${made.data.name}" made for user ${made.data.user}. It is shown this once: copy it now.`)}
<p><code id="new-key" class="secret">${key}</code> <button type="button" data-copy="new-key">Copy key</button></p>
<h2>Claude Code</h2>
<pre id="claude-line">${claude}</pre><button type="button" data-copy="claude-line">Copy</button>
<h2>Cursor (~/.cursor/mcp.json)</h2>
<pre id="cursor-json">${cursor}</pre><button type="button" data-copy="cursor-json">Copy</button>
<p><a href="/dashboard/teams/${encodeURIComponent(team)}">Back to the team</a></p>`;
    return page(c, `New key for ${team}`, body, signIn, 201);
  })
  .get("/:id/revoke", async (c) => {
    const team = c.req.param("team") ?? "";
    const id = c.req.param("id");
    const signIn = c.get("operator");
    const body = html`<p>Revoke key <code>${id}</code> of team ${team}? Requests with it are refused from then on; a key that is its own user (no user given) also loses its upstream connections and secrets.</p>
<form method="post" action="/dashboard/teams/${encodeURIComponent(team)}/keys/${encodeURIComponent(id)}/revoke">${csrfField(signIn)}
<button type="submit" class="danger">Revoke key</button> <a href="/dashboard/teams/${encodeURIComponent(team)}">Cancel</a></form>`;
    return page(c, "Revoke a key", body, signIn);
  })
  .post("/:id/revoke", async (c) => {
    const team = c.req.param("team") ?? "";
    const id = c.req.param("id");
    const signIn = c.get("operator");
    const listed = await adminCall(() => listKeys(c.env, team));
    if (!listed.ok || !listed.data.some((k) => k.id === id))
      return page(c, "Revoke a key", notice("error", `Team ${team} has no key "${id}".`), signIn, 404);
    const revoked = await adminCall(() => revokeKey(c.env, id));
    if (!revoked.ok) return page(c, "Revoke a key", notice("error", revoked.message), signIn, 400);
    return c.redirect(`/dashboard/teams/${encodeURIComponent(team)}?saved=revoked`, 303);
  });

/** The keys table and the new-key form of a team page. */
export async function keysSection(c: Context<AppEnv>, team: string) {
  const signIn = c.get("operator");
  const listed = await adminCall(() => listKeys(c.env, team));
  const now = Date.now();
  return html`<h2>API keys</h2>
${c.req.query("saved") === "revoked" ? notice("ok", "Key revoked.") : ""}
${listed.ok ? "" : notice("error", listed.message)}
${table(
  "Keys",
  ["Name", "User", "Prefix", "Made", "Last used", ""],
  (listed.ok ? listed.data : []).map((k) => [
    k.name,
    k.user === k.id ? html`<span class="muted">its own (${k.id})</span>` : k.user,
    html`<code>${k.prefix}…</code>`,
    time(k.createdAt),
    k.lastUsedAt ? `${ago(now - k.lastUsedAt)} ago` : "never",
    html`<a href="/dashboard/teams/${encodeURIComponent(team)}/keys/${encodeURIComponent(k.id)}/revoke">Revoke ${k.name}</a>`,
  ]),
)}
<form method="post" action="/dashboard/teams/${encodeURIComponent(team)}/keys" class="row">${csrfField(signIn)}
<label>New key's name <input name="name" required maxlength="100"></label>
<label>User (optional: who it acts as, e.g. an email) <input name="user" maxlength="200"></label>
<button type="submit">Make key</button>
</form>`;
}
