import type { Context } from "hono";
import { html } from "hono/html";
import type { FlowRefusal } from "../../../durable-objects/connections/answers";
import { notice, ownPage } from "../dashboard/layout";
import type { AppEnv } from "../http/app-env";

/** What the connect page shows and asks for one pending flow. */
export interface ConnectView {
  team: string;
  flow: string;
  server: string;
  user: string;
  expiresAt: number;
  /** the server takes per-user OAuth: the form goes on to its sign-in */
  oauth: boolean;
  /** the `${user:NAME}` secrets its headers take */
  secrets: string[];
  /** those the user has set (shown only to a browser known to be the user) */
  secretsSet?: string[];
  /** this browser signed in as the user before: no key asked */
  known: boolean;
  /** the origin the form's post is redirected to (the upstream's sign-in), for `form-action` */
  redirectTo?: string;
  error?: string;
}

const AGAIN = "Go back to your agent and retry the call: it gives you a new link.";

/** What each refusal of a flow step means to the person holding the link. */
const REFUSED: Record<FlowRefusal, string> = {
  unknown: "This link was already used, or it is not one of this gateway's.",
  expired: "This link has expired (a link works for 15 minutes).",
  "wrong-user": "This link was made for another user.",
  "wrong-server": "This link was made for another server.",
  "wrong-state": "This sign-in answer is not the one this link last started.",
  "not-started": "This link's sign-in was not started on this gateway's page.",
};

export const refusalText = (reason: FlowRefusal) => `${REFUSED[reason]} Nothing changed. ${AGAIN}`;

/** The connect page: who and what the link is for, the user's API key (unless known), their secrets. */
export function connectPage(c: Context<AppEnv>, v: ConnectView, status: 200 | 400 | 401 = 200) {
  const until = new Date(v.expiresAt).toISOString().slice(11, 16);
  const secretFields = v.secrets.map((name) => {
    const set = v.secretsSet?.includes(name);
    return html`<label>${name}${set ? " (set: leave empty to keep it)" : ""} <input type="password" name="secret_${name}" autocomplete="off" maxlength="4096"${v.oauth || set ? "" : html` required`}></label>`;
  });
  const body = html`${v.error ? notice("error", v.error) : ""}
<p>Your agent needs <strong>${v.server}</strong> as <strong>${v.user}</strong> (team ${v.team}).
${v.oauth ? html`Continue, sign in at ${v.server}, and your calls reach it with your own access.` : html`It takes a secret of your own, kept encrypted by this gateway for you only.`}</p>
<form method="post" action="/connect/${v.team}/${v.flow}" class="row">
${
  v.known
    ? html`<p>This browser is signed in as ${v.user}.</p>`
    : html`<label>Your API key (it acts as ${v.user}) <input type="password" name="key" autocomplete="off" maxlength="1000" required autofocus></label>`
}
${secretFields}
<button type="submit">${v.oauth ? `Continue to ${v.server}` : "Save"}</button>
</form>
<p class="muted">This link works once, until ${until} UTC, and only for ${v.user}. The key is checked here and never sent on.</p>`;
  return ownPage(c, `Connect ${v.server}`, body, status, v.redirectTo ? { redirectTo: v.redirectTo } : {});
}

/** A page that says what happened and what to do; nothing was changed by the request. */
export function problemPage(c: Context<AppEnv>, text: string, status: 400 | 401 | 403 | 404 | 502 | 503) {
  return ownPage(c, "Cannot connect", notice("error", text), status);
}

/** The callback's answer when the connection is made, or the secrets saved. */
export function donePage(c: Context<AppEnv>, server: string, user: string, what: "connected" | "saved") {
  const line =
    what === "connected" ? `${server} is connected for ${user}.` : `Your secrets for ${server} are saved.`;
  return ownPage(
    c,
    what === "connected" ? `${server} connected` : `${server}: saved`,
    html`${notice("ok", line)}<p>Go back to your agent and retry: its calls to ${server} now go as ${user}. You can close this page.</p>`,
    200,
  );
}
