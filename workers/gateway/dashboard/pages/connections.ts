import { Hono } from "hono";
import { html } from "hono/html";
import type { AppEnv } from "../../http/app-env";
import { endUserConnection, listTeamConnections } from "../../routes/admin-service";
import { adminCall } from "../admin-call";
import { csrfField, notice, page, table } from "../layout";

const shown = (iso: string | undefined) => (iso ? iso.replace("T", " ").slice(0, 19) : "—");

/**
 * A team's users' connections to upstream servers (never a token): who, which server, status,
 * scopes, times; ending one revokes it upstream where it can, as the admin API does.
 */
export const connectionPages = new Hono<AppEnv>()
  .get("/", async (c) => {
    const team = c.req.param("team") ?? "";
    const signIn = c.get("operator");
    const listed = await adminCall(() => listTeamConnections(c.env, team));
    const ended = c.req.query("ended");
    const body = html`${ended ? notice("ok", `Connection ended (${ended === "revoked" ? "revoked upstream" : "deleted here; the upstream offers no revocation"}).`) : ""}
${listed.ok ? "" : notice("error", listed.message)}
${table(
  `Connections of ${team}`,
  ["User", "Server", "Status", "Scopes", "Connected (UTC)", "Updated (UTC)", "Token expires (UTC)", ""],
  (listed.ok ? listed.data : []).map((v) => [
    v.user,
    v.server,
    v.status,
    v.scopes.join(" "),
    shown(v.connectedAt),
    shown(v.updatedAt),
    shown(v.expiresAt),
    html`<form method="post" action="/dashboard/teams/${encodeURIComponent(team)}/connections/end" class="inline">${csrfField(signIn)}<input type="hidden" name="user" value="${v.user}"><input type="hidden" name="server" value="${v.server}"><button type="submit" class="danger">End ${v.user}'s ${v.server}</button></form>`,
  ]),
)}
<p class="muted">Users connect from the link a call gives them; ending a connection makes their next call ask again.</p>`;
    return page(c, `Connections of ${team}`, body, signIn, listed.ok ? 200 : 503);
  })
  .post("/end", async (c) => {
    const team = c.req.param("team") ?? "";
    const signIn = c.get("operator");
    const form = await c.req.parseBody();
    const user = typeof form.user === "string" ? form.user : "";
    const server = typeof form.server === "string" ? form.server : "";
    const ended = await adminCall(() => endUserConnection(c.env, team, user, server));
    if (!ended.ok) return page(c, "End a connection", notice("error", ended.message), signIn, 404);
    const how = ended.data.revoked ? "revoked" : "deleted";
    return c.redirect(`/dashboard/teams/${encodeURIComponent(team)}/connections?ended=${how}`, 303);
  });
