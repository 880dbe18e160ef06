import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { request } from "../helpers/app";
import { TEST_API_KEY } from "../helpers/keys";
import { admin, teamWithKey } from "../helpers/teams";

const ORIGIN = "http://localhost";
const REDIRECT = "http://127.0.0.1:9/callback";
const XSS = "<img src=x onerror=window.__xss=1>";

function base64url(bytes: ArrayBuffer | Uint8Array): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

async function register(name = "unit client"): Promise<string> {
  const res = await request("/oauth/register", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

/** Opens the consent page for a new PKCE request: the page, its cookie and handle, and the verifier. */
async function openConsent(clientId: string) {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st-1",
    resource: ORIGIN,
  });
  const res = await request(`/oauth/authorize?${query}`);
  const body = await res.text();
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
  const handle = /name="handle" value="([^"]+)"/.exec(body)?.[1] ?? "";
  const q = /name="q" value="([^"]+)"/.exec(body)?.[1]?.replaceAll("&amp;", "&") ?? "";
  return { res, body, cookie, handle, q, verifier };
}

function post(cookie: string, fields: Record<string, string>, origin = ORIGIN) {
  return request("/oauth/authorize", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: origin },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

function token(fields: Record<string, string>) {
  return request("/oauth/token", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Registration, consent with `key`, code exchange with PKCE: the access token. */
async function signIn(key: string): Promise<string> {
  const clientId = await register();
  const page = await openConsent(clientId);
  const allowed = await post(page.cookie, { handle: page.handle, q: page.q, key });
  expect(allowed.status).toBe(302);
  const code = new URL(allowed.headers.get("Location") ?? "").searchParams.get("code") ?? "";
  const issued = await token({
    grant_type: "authorization_code",
    code,
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_verifier: page.verifier,
  });
  expect(issued.status).toBe(200);
  return ((await issued.json()) as { access_token: string }).access_token;
}

const run = (auth: string) =>
  request("/v1/execute", {
    method: "POST",
    headers: { Authorization: `Bearer ${auth}`, "Content-Type": "application/json" },
    body: JSON.stringify({ code: "return 1 + 1" }),
  });

describe("OAuth front door", () => {
  it("publishes protected resource and authorization server metadata", async () => {
    const prm = await request("/.well-known/oauth-protected-resource");
    expect(prm.status).toBe(200);
    expect(await prm.json()).toMatchObject({ resource: ORIGIN, authorization_servers: [ORIGIN] });
    const as = await request("/.well-known/oauth-authorization-server");
    expect(as.status).toBe(200);
    expect(await as.json()).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
    });
  });

  it("grants a team key's access: code with PKCE, token, refresh; revoking the key ends it", async () => {
    const { id, key } = await teamWithKey("oauth-unit", {});
    const clientId = await register(XSS);
    const page = await openConsent(clientId);
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(page.res.headers.get("Content-Security-Policy")).toContain(
      "form-action 'self' http://127.0.0.1:9",
    );
    expect(page.body).not.toContain(XSS);
    expect(page.body).toContain("&lt;img src=x onerror=window.__xss=1&gt;");
    expect(page.cookie).toMatch(/^__Host-oauth-consent/);

    const wrong = await post(page.cookie, {
      handle: page.handle,
      q: page.q,
      key: "cmk_wrong",
      decision: "allow",
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("not a valid team API key");
    const foreign = await post(page.cookie, { handle: page.handle, q: page.q, key }, "https://evil.example");
    expect(foreign.status).toBe(403);
    const noCookie = await post("", { handle: page.handle, q: page.q, key });
    expect(noCookie.status).toBe(400);

    const ok = await post(page.cookie, { handle: page.handle, q: page.q, key, decision: "allow" });
    expect(ok.status).toBe(302);
    const back = new URL(ok.headers.get("Location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("st-1");
    const code = back.searchParams.get("code") ?? "";

    const badVerifier = await token({
      grant_type: "authorization_code",
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: "x".repeat(43),
    });
    expect(badVerifier.status).toBe(400);
    // A wrong verifier is refused; the real exchange below uses a fresh authorization.
    const again = await openConsent(clientId);
    const ok2 = await post(again.cookie, { handle: again.handle, q: again.q, key });
    const code2 = new URL(ok2.headers.get("Location") ?? "").searchParams.get("code") ?? "";
    const issued = await token({
      grant_type: "authorization_code",
      code: code2,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: again.verifier,
    });
    expect(issued.status).toBe(200);
    const tokens = (await issued.json()) as { access_token: string; refresh_token: string; scope: string };
    expect(tokens.access_token.startsWith(`${id}:`)).toBe(true);
    expect(tokens.scope).toBe("mcp");

    const used = await run(tokens.access_token);
    expect(used.status).toBe(200);
    expect(await used.json()).toMatchObject({ result: 2 });

    const refreshed = await token({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect((await run(next.access_token)).status).toBe(200);

    expect((await admin("DELETE", `/keys/${id}`)).status).toBe(204);
    const refused = await run(next.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    const noRefresh = await token({
      grant_type: "refresh_token",
      refresh_token: next.refresh_token,
      client_id: clientId,
    });
    expect(noRefresh.status).toBe(400);
    // The grants and tokens are gone from KV too (revoked by the admin API, not only refused).
    expect((await env.OAUTH_KV.list({ prefix: `grant:${id}:` })).keys).toEqual([]);
    expect((await env.OAUTH_KV.list({ prefix: `token:${id}:` })).keys).toEqual([]);
  });

  it("refuses an expired access token", async () => {
    const { id, key } = await teamWithKey("oauth-expiry", {});
    const access_token = await signIn(key);
    expect((await run(access_token)).status).toBe(200);
    // Its stored record as it will be an hour from now: expired (KV's own TTL would then drop it too).
    const [stored] = (await env.OAUTH_KV.list({ prefix: `token:${id}:` })).keys;
    const record = (await env.OAUTH_KV.get(stored?.name ?? "", "json")) as { expiresAt: number };
    record.expiresAt = Math.floor(Date.now() / 1000) - 1;
    await env.OAUTH_KV.put(stored?.name ?? "", JSON.stringify(record));
    const refused = await run(access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
  });

  it("refuses forged and garbage tokens, and keeps API keys working", async () => {
    for (const forged of ["key_0123456789abcdef:grant:secret", "dev:x:y", "a:b"]) {
      const res = await run(forged);
      expect(res.status).toBe(401);
    }
    expect((await run(TEST_API_KEY)).status).toBe(200);
  });

  it("signs in with DEV_API_KEY as team default", async () => {
    const access_token = await signIn(TEST_API_KEY);
    expect(access_token.startsWith("dev:")).toBe(true);
    expect((await run(access_token)).status).toBe(200);
  });

  it("sends a denial back to the client", async () => {
    const clientId = await register();
    const page = await openConsent(clientId);
    const denied = await post(page.cookie, { handle: page.handle, q: page.q, decision: "deny" });
    expect(denied.status).toBe(302);
    expect(new URL(denied.headers.get("Location") ?? "").searchParams.get("error")).toBe("access_denied");
  });
});
