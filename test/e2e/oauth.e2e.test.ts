import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  extractResourceMetadataUrl,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationFull,
  OAuthProtectedResourceMetadata,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/chromium";
import { TEST_API_KEY } from "../helpers/keys";
import { adminRequest, connect, execute, gatewayUrl, postMcp, restExecute } from "./client";

// A web connector's whole OAuth journey, as an MCP client makes it (the SDK's own auth functions):
// a 401 names the protected resource metadata, which names the authorization server; the client
// registers itself, sends the person to the consent page (a real Chromium, where a team API key made
// through the admin API is typed), exchanges the code with its PKCE verifier, calls MCP as that
// team, refreshes; then the key is revoked and the tokens stop working.
const XSS = "<img src=x onerror=window.__xss=1>";
const REDIRECT = "http://127.0.0.1:9/oauth/callback";
const TEAM = "oauth-e2e";

let context: BrowserContext;
let page: Page;
let prm: OAuthProtectedResourceMetadata;
let as: AuthorizationServerMetadata;
let issuer: string;

beforeAll(async () => {
  ({ context, page } = await launchChromium("oauth-chromium", { width: 1000, height: 760 }));
  // The client's redirect URI: nothing listens there, the browser's arrival is what counts.
  await context.route(`${REDIRECT}**`, (route) => route.fulfill({ status: 200, body: "back in the app" }));
}, 60_000);

afterAll(async () => {
  await context?.close();
});

async function teamKey(): Promise<{ id: string; key: string }> {
  expect((await adminRequest("PUT", `/teams/${TEAM}`, { servers: { demo: { service: "DEMO" } } })).ok).toBe(
    true,
  );
  const made = await adminRequest("POST", `/teams/${TEAM}/keys`, { name: "connector" });
  expect(made.status).toBe(201);
  return (await made.json()) as { id: string; key: string };
}

function register(name: string): Promise<OAuthClientInformationFull> {
  return registerClient(issuer, {
    metadata: as,
    clientMetadata: {
      client_name: name,
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
  });
}

/** Opens the consent page for a new authorization request; returns its PKCE verifier. */
async function openConsent(client: OAuthClientInformationFull): Promise<string> {
  const { authorizationUrl, codeVerifier } = await startAuthorization(issuer, {
    metadata: as,
    clientInformation: client,
    redirectUrl: REDIRECT,
    scope: "mcp",
    state: "e2e-state",
    resource: new URL(prm.resource),
  });
  await page.goto(authorizationUrl.href);
  return codeVerifier;
}

/** Types the key and allows; the code the browser brings back to the redirect URI. */
async function allowWith(key: string): Promise<string> {
  await page.getByLabel("Team API key").fill(key);
  const arrived = page.waitForRequest((r) => r.url().startsWith(REDIRECT));
  await page.getByRole("button", { name: "Allow" }).click();
  const back = new URL((await arrived).url());
  expect(back.searchParams.get("state")).toBe("e2e-state");
  expect(back.searchParams.get("iss")).toBe(issuer);
  return back.searchParams.get("code") ?? "";
}

describe("OAuth for web connectors", () => {
  it("discovers the authorization server from a 401 on /mcp", async () => {
    const res = await fetch(`${gatewayUrl()}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    const challenge = res.headers.get("WWW-Authenticate") ?? "";
    expect(challenge).toContain('realm="mcp"');
    const metadataUrl = extractResourceMetadataUrl(res);
    expect(metadataUrl?.href).toBe(`${gatewayUrl()}/.well-known/oauth-protected-resource`);
    prm = await discoverOAuthProtectedResourceMetadata(`${gatewayUrl()}/mcp`, {
      resourceMetadataUrl: metadataUrl,
    });
    issuer = prm.authorization_servers?.[0] ?? "";
    expect(issuer).toBe(new URL(gatewayUrl()).origin);
    const found = await discoverAuthorizationServerMetadata(issuer);
    if (!found) throw new Error("no authorization server metadata");
    as = found;
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as.registration_endpoint).toBe(`${issuer}/oauth/register`);
  });

  it("registers, signs in with a team key in Chromium, calls MCP as the team, refreshes; revoking the key refuses the tokens", async () => {
    const { id, key } = await teamKey();
    const client = await register("e2e connector");
    const verifier = await openConsent(client);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Connect e2e connector");
    expect(await page.locator("main").textContent()).toContain("127.0.0.1");
    const code = await allowWith(key);
    const tokens = await exchangeAuthorization(issuer, {
      metadata: as,
      clientInformation: client,
      authorizationCode: code,
      codeVerifier: verifier,
      redirectUri: REDIRECT,
      resource: new URL(prm.resource),
    });
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.access_token).not.toContain(key);

    const bearer = { Authorization: `Bearer ${tokens.access_token}` };
    const { client: mcp } = await connect(bearer);
    const ran = await execute(mcp, { code: "return 1+1" });
    expect(ran.result).toBe(2);
    await mcp.close();
    const audit = await fetch(`${gatewayUrl()}/v1/audit?kind=execute&limit=5`, { headers: bearer });
    expect(audit.status).toBe(200);
    const { entries } = (await audit.json()) as { entries: Array<{ team: string; keyId: string }> };
    expect(entries[0]).toMatchObject({ team: TEAM, keyId: id });

    const refreshed = await refreshAuthorization(issuer, {
      metadata: as,
      clientInformation: client,
      refreshToken: tokens.refresh_token ?? "",
      resource: new URL(prm.resource),
    });
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    const fresh = { Authorization: `Bearer ${refreshed.access_token}` };
    expect((await restExecute({ code: "return 40 + 2" }, fresh)).body.result).toBe(42);

    expect((await adminRequest("DELETE", `/keys/${id}`)).status).toBe(204);
    for (const auth of [bearer, fresh]) {
      const refused = await restExecute({ code: "return 1" }, auth);
      expect(refused.status).toBe(401);
    }
    const mcpRefused = await postMcp(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      },
      fresh,
    );
    expect(mcpRefused.status).toBe(401);
    expect(mcpRefused.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    await expect(
      refreshAuthorization(issuer, {
        metadata: as,
        clientInformation: client,
        refreshToken: refreshed.refresh_token ?? "",
        resource: new URL(prm.resource),
      }),
    ).rejects.toThrow();

    // Forged (our shape, a real key id, made-up grant and secret), tampered and garbage tokens.
    const tampered = `${refreshed.access_token.slice(0, -1)}${refreshed.access_token.endsWith("A") ? "B" : "A"}`;
    for (const token of [`${id}:AAAAAAAAAAAAAAAA:${"x".repeat(32)}`, tampered, "garbage", "dev:x:y"]) {
      const res = await restExecute({ code: "return 1" }, { Authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
    }
  });

  it("shows a hostile client name as text, and a wrong key as a clear error", async () => {
    const client = await register(XSS);
    await openConsent(client);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(`Connect ${XSS}`);
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.evaluate("typeof window.__xss")).toBe("undefined");
    await page.getByLabel("Team API key").fill("cmk_not-a-key");
    const refused = page.waitForResponse((r) => r.request().method() === "POST");
    await page.getByRole("button", { name: "Allow" }).click();
    expect((await refused).status()).toBe(401);
    await expect
      .poll(() => page.getByRole("alert").first().textContent())
      .toContain("not a valid team API key");
    expect(await page.evaluate("typeof window.__xss")).toBe("undefined");
    // The page stays usable: the right key now goes through (DEV_API_KEY acts as team default).
    expect(await allowWith(TEST_API_KEY)).toMatch(/^dev:/);
  });
});
