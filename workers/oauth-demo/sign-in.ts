import {
  AuthorizationError,
  type ConsentDescription,
  type OAuthHelpers,
} from "@cloudflare/workers-oauth-provider";
import { html } from "hono/html";
import { PATHS, SCOPE } from "./oauth";
import { DEMO_USERS, demoUser } from "./users";

type Html = ReturnType<typeof html>;

/** A sign-in form is a handle, a user and a decision: anything bigger is not one. */
const MAX_FORM_BYTES = 4_096;

/**
 * The authorization endpoint: GET shows which app asks, where access goes, and the demo users to
 * sign in as; POST takes the choice. The form is bound to the browser that opened it and works
 * once, for 10 minutes (the library's `beginConsent()` handle and its `__Host-` cookie), and a POST
 * from another origin is refused; every value shown is escaped (`html`), client names included.
 */
export async function signIn(request: Request, oauth: OAuthHelpers): Promise<Response> {
  try {
    if (request.method === "GET") return await showForm(request, oauth);
    if (request.method === "POST") return await takeForm(request, oauth);
    return page("Not allowed", html`<p>Use the sign-in page.</p>`, 405);
  } catch (err) {
    if (!(err instanceof AuthorizationError)) throw err;
    // Back to the app only where the library validated the client and its redirect URI.
    if (err.redirectTo) return Response.redirect(err.redirectTo, 302);
    return page(
      "Cannot sign in",
      html`<p>${err.description}.</p><p>This page works once, for 10 minutes, in the browser that opened it: go back to the app and connect again.</p>`,
      400,
    );
  }
}

async function showForm(request: Request, oauth: OAuthHelpers): Promise<Response> {
  const authRequest = await oauth.parseAuthRequest(request);
  const details = await oauth.describeConsent(authRequest);
  const consent = await oauth.beginConsent(authRequest);
  return page(`Sign in to ${details.clientName}`, form(details, consent.handle), 200, {
    headers: consent.headers,
    redirectUri: details.redirectUri,
  });
}

async function takeForm(request: Request, oauth: OAuthHelpers): Promise<Response> {
  const own = new URL(request.url).origin;
  const origin = request.headers.get("Origin");
  if (origin !== null && origin !== own)
    return page("Cannot sign in", html`<p>A form of another site cannot sign in here.</p>`, 403);
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_FORM_BYTES)
    return page("Cannot sign in", html`<p>The form is too large.</p>`, 413);
  const form = await request.formData();
  const handle = form.get("handle");
  const user = demoUser(form.get("user"));
  if (typeof handle !== "string" || handle === "" || handle.length > 200)
    return page(
      "Cannot sign in",
      html`<p>The form is incomplete: go back to the app and connect again.</p>`,
      400,
    );
  if (form.get("decision") === "deny") {
    const denied = await oauth.denyConsent(request, handle);
    return new Response(null, { status: 302, headers: denied.headers });
  }
  if (!user)
    return page("Cannot sign in", html`<p>Pick one of the demo users: go back and try again.</p>`, 400);
  const approved = await oauth.approveConsent(request, handle, { scope: [SCOPE] });
  const { redirectTo } = await oauth.completeAuthorization({
    request: approved.request,
    userId: user,
    metadata: {},
    scope: [SCOPE],
    props: { user },
  });
  approved.headers.set("Location", redirectTo);
  return new Response(null, { status: 302, headers: approved.headers });
}

function form(d: ConsentDescription, handle: string): Html {
  const users = Object.entries(DEMO_USERS).map(
    ([id, u]) =>
      html`<li><button type="submit" name="user" value="${id}">Sign in as ${u.name}</button> <small>${u.email}</small></li>`,
  );
  return html`<p><strong>${d.clientName}</strong> asks to read your notes on this demo server.
${d.clientDomain ? html`It is published by <strong>${d.clientDomain}</strong>.` : html`It registered itself; its name is not verified.`}</p>
<p>Access goes to <code>${d.redirectHost}</code> (${d.redirectUri}).</p>
${d.redirectIsLoopback ? html`<p><strong>Access goes to a program on this computer:</strong> continue only if you just started connecting from it.</p>` : ""}
<form method="post" action="${PATHS.authorize}">
<input type="hidden" name="handle" value="${handle}">
<p>This demo has no passwords: pick who you are.</p>
<ul>${users}</ul>
<p><button type="submit" name="decision" value="deny">Deny</button></p>
</form>`;
}

/**
 * A whole page: no script, styles only by this response's nonce, no framing, nothing cached, and
 * forms may post here or (answered by a redirect) to the app's redirect URI's origin.
 */
async function page(
  title: string,
  body: Html,
  status: number,
  extra: { headers?: Headers; redirectUri?: string } = {},
): Promise<Response> {
  const nonce = crypto.randomUUID();
  const target = extra.redirectUri ? ` ${new URL(extra.redirectUri).origin}` : "";
  const headers = new Headers(extra.headers);
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set(
    "Content-Security-Policy",
    `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'${/^https?:\/\/[^\s;,']+$/.test(target.trim()) ? target : ""}; frame-ancestors 'none'; base-uri 'none'`,
  );
  headers.set("Cache-Control", "no-store");
  headers.set("Referrer-Policy", "same-origin");
  headers.set("X-Content-Type-Options", "nosniff");
  const document = await html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${title} · OAuth demo</title>
<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}ul{list-style:none;padding:0}li{margin:.5rem 0}button{font:inherit;padding:.3rem .8rem}</style>
</head><body><h1>${title}</h1>${body}</body></html>`;
  return new Response(String(document), { status, headers });
}
