import {
  auth,
  Client,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { serveOAuthUpstream } from "../fixtures/oauth-upstream/serve";

// The OAuth test upstream the per-user authorization tests start beside the stack, over real HTTP
// in Node: the SDK's own client signs a user in through its sign-in page, refreshes and calls it.

let upstream: Awaited<ReturnType<typeof serveOAuthUpstream>>;
beforeAll(async () => {
  upstream = await serveOAuthUpstream({ accessTokenTtlSeconds: 60 });
});
afterAll(() => upstream.close());

/** An SDK client's OAuth state in memory, as a desktop MCP client would keep it. */
function memoryProvider(): OAuthClientProvider & { url?: URL } {
  const kept: {
    client?: StoredOAuthClientInformation;
    tokens?: StoredOAuthTokens;
    verifier?: string;
    discovery?: OAuthDiscoveryState;
    url?: URL;
  } = {};
  return {
    get url() {
      return kept.url;
    },
    redirectUrl: "http://127.0.0.1:1/callback",
    clientMetadata: {
      redirect_uris: ["http://127.0.0.1:1/callback"],
      client_name: "e2e",
      token_endpoint_auth_method: "none",
    },
    clientInformation: () => kept.client,
    saveClientInformation: (client) => {
      kept.client = client;
    },
    tokens: () => kept.tokens,
    saveTokens: (tokens) => {
      kept.tokens = tokens;
    },
    redirectToAuthorization: (url) => {
      kept.url = url;
    },
    saveCodeVerifier: (verifier) => {
      kept.verifier = verifier;
    },
    codeVerifier: () => kept.verifier ?? "",
    saveDiscoveryState: (state) => {
      kept.discovery = state;
    },
    discoveryState: () => kept.discovery,
  };
}

it("signs a user in through its page, answers as that user, refreshes, and records every bearer", async () => {
  const provider = memoryProvider();
  expect(await auth(provider, { serverUrl: upstream.url })).toBe("REDIRECT");
  const page = await fetch(provider.url ?? "");
  const html = await page.text();
  expect(html).toContain("Sign in as bob");
  // The page's form, submitted as a browser would: its hidden fields and the chosen user.
  const fields = [...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, n, v]): [string, string] => [
    n ?? "",
    v ?? "",
  ]);
  const form = new URLSearchParams([...fields.filter(([n]) => n !== "user"), ["user", "bob"]]);
  const back = await fetch(`${upstream.origin}/authorize`, {
    method: "POST",
    body: form,
    redirect: "manual",
  });
  const location = new URL(back.headers.get("location") ?? "");
  expect(location.searchParams.get("iss")).toBe(upstream.origin);
  const code = location.searchParams.get("code") ?? "";
  expect(
    await auth(provider, { serverUrl: upstream.url, authorizationCode: code, iss: upstream.origin }),
  ).toBe("AUTHORIZED");

  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(upstream.url), { authProvider: provider }));
  expect((await client.callTool({ name: "whoami", arguments: {} })).structuredContent).toMatchObject({
    user: "bob",
  });
  upstream.as.expireAccessTokens();
  expect((await client.callTool({ name: "whoami", arguments: {} })).structuredContent).toMatchObject({
    user: "bob",
  });
  await client.close();

  expect(upstream.as.tokenRequests.map((r) => [r.grantType, r.resource])).toEqual([
    ["authorization_code", upstream.url],
    ["refresh_token", upstream.url],
  ]);
  expect(upstream.bearers.some((b) => b.user === null)).toBe(true); // the expired one, refused
  expect(upstream.bearers.every((b) => b.issuedHere)).toBe(true);
  const forged = await fetch(upstream.url, {
    method: "POST",
    headers: { Authorization: "Bearer not-from-here" },
  });
  expect(forged.status).toBe(401);
  expect(forged.headers.get("www-authenticate")).toContain("resource_metadata=");
  expect(upstream.bearers.at(-1)).toEqual({ token: "not-from-here", issuedHere: false, user: null });
});
