import {
  auth,
  Client,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium } from "../helpers/chromium";

// The OAuth demo upstream (workers/oauth-demo) as an MCP OAuth client meets it: the SDK's own client
// side of OAuth (discovery, dynamic registration, PKCE, token, refresh) over an in-memory provider,
// and the sign-in page in Chromium.

const demo = inject("oauthDemoUrl");
const mcpUrl = `${demo}/mcp`;
/** The app's redirect URI: nothing listens there; the browser's request to it is caught. */
const CALLBACK = "http://127.0.0.1:59999/callback";
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

/** What an app keeps per user and server, in memory. */
class MemoryProvider implements OAuthClientProvider {
  client?: StoredOAuthClientInformation;
  saved?: StoredOAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  constructor(private readonly name = "oauth-demo e2e") {}
  get redirectUrl() {
    return CALLBACK;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [CALLBACK],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** What the SDK drops when the server refuses it (a revoked grant: the tokens). */
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.client = undefined;
  }
}

let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  ({ context, page } = await launchChromium("oauth-demo-chromium", { width: 900, height: 700 }));
});
afterAll(async () => {
  await context?.close();
});

const newClient = () => new Client({ name: "oauth-demo-e2e", version: "1.0.0" });

/** Connects with `provider`'s tokens and calls `tool`: its structured answer. */
async function call(provider: MemoryProvider, tool: string, args: Record<string, unknown> = {}) {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  try {
    return (await client.callTool({ name: tool, arguments: args })).structuredContent;
  } finally {
    await client.close();
  }
}

/** A first connection: the 401 sends the SDK through discovery and registration to the sign-in URL. */
async function startConnecting(provider: MemoryProvider): Promise<StreamableHTTPClientTransport> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  await expect(newClient().connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.client?.client_id).toEqual(expect.any(String));
  expect(provider.authorizationUrl?.origin).toBe(demo);
  return transport;
}

/** The browser leg: the sign-in page, a click on the user, the redirect back to the app caught. */
async function signInInBrowser(url: URL, button: string): Promise<URL> {
  let back: URL | undefined;
  await context.route(`${CALLBACK}**`, (route) => {
    back = new URL(route.request().url());
    return route.fulfill({ status: 200, body: "signed in" });
  });
  try {
    await page.goto(url.href);
    await page.getByRole("button", { name: button }).click();
    await expect.poll(() => back, { timeout: 10_000 }).toBeDefined();
  } finally {
    await context.unroute(`${CALLBACK}**`);
  }
  return back as URL;
}

async function connectAs(button: string): Promise<MemoryProvider> {
  const provider = new MemoryProvider();
  const transport = await startConnecting(provider);
  const back = await signInInBrowser(provider.authorizationUrl as URL, button);
  expect(back.searchParams.get("iss")).toBe(demo);
  await transport.finishAuth(back.searchParams);
  expect(provider.saved).toMatchObject({ token_type: "bearer", scope: "notes" });
  expect(provider.saved?.refresh_token).toEqual(expect.any(String));
  return provider;
}

describe("the OAuth demo upstream", () => {
  let alice: MemoryProvider;

  it("publishes protected-resource and authorization-server metadata an MCP client discovers", async () => {
    const challenge = await fetch(mcpUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
    });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get("www-authenticate")).toContain(
      `resource_metadata="${demo}/.well-known/oauth-protected-resource/mcp"`,
    );
    const resource = await (await fetch(`${demo}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(resource).toMatchObject({
      resource: mcpUrl,
      authorization_servers: [demo],
      scopes_supported: ["notes"],
    });
    const server = await (await fetch(`${demo}/.well-known/oauth-authorization-server`)).json();
    expect(server).toMatchObject({
      issuer: demo,
      registration_endpoint: `${demo}/oauth/register`,
      revocation_endpoint: `${demo}/oauth/token`,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: expect.arrayContaining(["authorization_code", "refresh_token"]),
    });
  });

  it("signs in the user picked on its page (in Chromium), and its tools answer as that user", async () => {
    alice = await connectAs("Sign in as Alice Martin");
    expect(await call(alice, "whoami")).toEqual({
      user: "alice",
      name: "Alice Martin",
      email: "alice@example.com",
      client: alice.client?.client_id,
    });
    const bob = await connectAs("Sign in as Bob Chen");
    expect(await call(bob, "whoami")).toMatchObject({ user: "bob" });
    const bobs = (await call(bob, "my_notes")) as { user: string; notes: { title: string }[] };
    expect(bobs).toEqual({ user: "bob", notes: [expect.objectContaining({ title: "On call" })] });
    const alices = (await call(alice, "my_notes", { contains: "review" })) as typeof bobs;
    expect(alices.notes.map((n) => n.title)).toEqual(["Quarterly review"]);
  });

  it("refreshes with the refresh token (rotated), then revokes it at the revocation endpoint", async () => {
    const before = alice.saved as StoredOAuthTokens;
    expect(await auth(alice, { serverUrl: mcpUrl })).toBe("AUTHORIZED");
    expect(alice.saved?.access_token).not.toBe(before.access_token);
    expect(alice.saved?.refresh_token).not.toBe(before.refresh_token);
    expect(await call(alice, "whoami")).toMatchObject({ user: "alice" });

    const revoked = await fetch(`${demo}/oauth/token`, {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({
        token: alice.saved?.refresh_token ?? "",
        token_type_hint: "refresh_token",
        client_id: alice.client?.client_id ?? "",
      }),
    });
    expect(revoked.status).toBe(200);
    const refused = await fetch(mcpUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${alice.saved?.access_token}` },
      body: "{}",
    });
    expect(refused.status).toBe(401);
    // The refresh token no longer works (invalid_grant): the SDK drops the tokens and asks the user again.
    expect(await auth(alice, { serverUrl: mcpUrl })).toBe("REDIRECT");
    expect(alice.saved).toBeUndefined();
  });

  it("binds its form to the browser that opened it, once; refuses other sites; escapes the app's name", async () => {
    const provider = new MemoryProvider('<img src=x onerror="alert(1)"> Evil & Co');
    await startConnecting(provider);
    const shown = await fetch(provider.authorizationUrl as URL);
    const text = await shown.text();
    expect(text).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; Evil &amp; Co");
    expect(text).not.toContain("<img");
    expect(shown.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    // Node's Headers (the test runs in Node; the types are the Workers')
    const setCookies = (shown.headers as unknown as { getSetCookie(): string[] }).getSetCookie();
    const cookie = setCookies.map((c) => c.split(";")[0]).join("; ");
    const handle = /name="handle" value="([^"]+)"/.exec(text)?.[1] ?? "";
    const post = (headers: Record<string, string>) =>
      fetch(`${demo}/authorize`, {
        method: "POST",
        redirect: "manual",
        headers: { ...FORM, ...headers },
        body: new URLSearchParams({ handle, user: "alice" }),
      });
    expect((await post({ Cookie: cookie, Origin: "https://evil.example" })).status).toBe(403);
    expect((await post({})).status).toBe(400);
    const signedIn = await post({ Cookie: cookie, Origin: demo });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toMatch(/^http:\/\/127\.0\.0\.1:59999\/callback\?code=/);
    expect((await post({ Cookie: cookie, Origin: demo })).status).toBe(400);
  });
});
