import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";
import type { Context } from "hono";
import { html } from "hono/html";
import { notice, ownPage } from "../dashboard/layout";
import type { AppEnv } from "../http/app-env";
import { OAUTH_PATHS } from "./server";

/** What the consent form needs: the client's facts, the transaction's handle, the request to re-show. */
export interface ConsentView {
  details: ConsentDescription;
  /** `beginConsent()`'s handle: single use, bound to this browser by a cookie (the form's CSRF token) */
  handle: string;
  /** the authorization request's query, to show the form again after a wrong key */
  query: string;
  error?: string;
}

/** The consent page: who asks, where access goes, what it means, and the team API key to sign in with. */
export function consentPage(
  c: Context<AppEnv>,
  view: ConsentView,
  status: 200 | 401 = 200,
  extraHeaders?: Headers,
) {
  const d = view.details;
  const body = html`${view.error ? notice("error", view.error) : ""}
<p><strong>${d.clientName}</strong> asks to use this gateway's MCP server as your team.</p>
<div class="scroll"><table>
<caption>What you grant</caption>
<tbody>
<tr><th scope="row">App</th><td>${d.clientName} <span class="muted">(the name the app registered itself with; it is not verified)</span></td></tr>
<tr><th scope="row">Access goes to</th><td><code>${d.redirectHost}</code> <span class="muted">(${d.redirectUri})</span></td></tr>
<tr><th scope="row">Access</th><td>Everything the API key you enter can do, as its team: search and call the team's tools, run code, use its sessions and skills. The app gets a token for an hour at a time, renewed for up to 30 days; revoking the key ends it at once.</td></tr>
</tbody>
</table></div>
${d.redirectIsLoopback ? html`<p class="notice error" role="note"><strong>Warning:</strong> access goes to an app on this computer (any local program could be listening there): continue only if you just started connecting from it.</p>` : ""}
<form method="post" action="${OAUTH_PATHS.authorize}" class="row">
<input type="hidden" name="handle" value="${view.handle}">
<input type="hidden" name="q" value="${view.query}">
<label>Team API key <input type="password" name="key" autocomplete="off" maxlength="1000" autofocus></label>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="danger">Deny</button>
</form>
<p class="muted">The key is checked here and never given to the app: the app receives its own token, which acts as the key's team. An operator makes keys (<code>npm run admin -- keys create &lt;team&gt; --name &lt;name&gt;</code> or the dashboard).</p>`;
  return ownPage(c, `Connect ${d.clientName}`, body, status, {
    redirectTo: d.redirectUri,
    ...(extraHeaders ? { headers: extraHeaders } : {}),
  });
}

/** A page that can only say what went wrong (the request is not one to redirect back to). */
export function problemPage(c: Context<AppEnv>, message: string, status: 400 | 403 | 404 | 503) {
  return ownPage(
    c,
    "Cannot connect",
    html`${notice("error", message)}
<p>Go back to the app and connect again.</p>`,
    status,
    {},
  );
}
