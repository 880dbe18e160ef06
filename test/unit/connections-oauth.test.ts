import { env } from "cloudflare:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { clientMetadataDocument } from "../../workers/gateway/connections/client-metadata";
import {
  beginConnect,
  finishConnect,
  openConnect,
  parseConnectState,
} from "../../workers/gateway/connections/connect";
import { disconnect, listConnections } from "../../workers/gateway/connections/disconnect";
import type { OAuthServer } from "../../workers/gateway/connections/provider";
import type { ConnectionTarget } from "../../workers/gateway/connections/store";
import { accessTokenFor, authProviderFor, onUnauthorized } from "../../workers/gateway/connections/tokens";
import type { GatewayEnv } from "../../workers/gateway/env";
import {
  type AuthorizationServerOptions,
  createOAuthUpstream,
  type OAuthUpstream,
} from "../fixtures/oauth-upstream";

const GATEWAY = "https://gw.example.com";
const gatewayEnv = env as unknown as GatewayEnv;

function setUp(
  team: string,
  options: Partial<AuthorizationServerOptions> = {},
  auth: Partial<OAuthServer["auth"]> = {},
) {
  const upstream = createOAuthUpstream({ origin: "http://127.0.0.1:9", ...options });
  const server: OAuthServer = {
    name: "linear",
    url: upstream.url,
    fetch: (url, init) => upstream.fetch(new Request(url, init)),
    auth: { type: "oauth", ...auth },
  };
  const target = (user: string): ConnectionTarget => ({
    env: gatewayEnv,
    team,
    user,
    server,
    origin: GATEWAY,
  });
  return { upstream, server, target };
}

/** The user follows their link: the gateway's begin, the upstream's sign-in, the callback. */
async function connect(upstream: OAuthUpstream, target: ConnectionTarget) {
  const flow = await openConnect(target.env, target.team, target.user, target.server.name);
  const begun = await beginConnect(target, flow.id);
  if (!begun.ok) throw new Error(`not begun: ${begun.reason}`);
  const signedIn = await upstream.fetch(new Request(`${begun.url}&user=${encodeURIComponent(target.user)}`));
  const back = new URL(signedIn.headers.get("Location") ?? "");
  const callback = {
    flow: parseConnectState(back.searchParams.get("state") ?? "")?.flow ?? "",
    state: back.searchParams.get("state") ?? "",
    code: back.searchParams.get("code") ?? "",
    iss: back.searchParams.get("iss") ?? undefined,
  };
  return {
    authorizationUrl: new URL(begun.url),
    back,
    callback,
    finished: await finishConnect(target, callback),
  };
}

async function whoami(target: ConnectionTarget): Promise<unknown> {
  const client = new Client({ name: "test", version: "1.0.0" });
  const fetch = target.server.fetch;
  await client.connect(
    new StreamableHTTPClientTransport(new URL(target.server.url), {
      ...(fetch ? { fetch } : {}),
      authProvider: authProviderFor(target),
    }),
  );
  try {
    return (await client.callTool({ name: "whoami", arguments: {} })).structuredContent;
  } finally {
    await client.close();
  }
}

describe("per-user OAuth to an upstream (the SDK's auth() over the connection store)", () => {
  it("connects each user as themselves: discovery, dynamic registration, PKCE S256, resource, code", async () => {
    const team = "oa-connect";
    const { upstream, target } = setUp(team);
    expect(await accessTokenFor(target("alice"))).toEqual({ ok: false, reason: "authorization-required" });

    const alice = await connect(upstream, target("alice"));
    expect(alice.finished).toEqual({ ok: true, server: "linear", scopes: ["read", "offline_access"] });
    const asked = alice.authorizationUrl.searchParams;
    expect(alice.authorizationUrl.origin + alice.authorizationUrl.pathname).toBe(
      `${upstream.origin}/authorize`,
    );
    expect(asked.get("code_challenge_method")).toBe("S256");
    expect(asked.get("resource")).toBe(upstream.url);
    expect(asked.get("redirect_uri")).toBe(`${GATEWAY}/connect/callback`);
    expect(parseConnectState(asked.get("state") ?? "")).toEqual({ team, flow: alice.callback.flow });
    expect([...upstream.as.clients.values()].map((c) => c.how)).toEqual(["dynamic"]);
    expect(upstream.as.tokenRequests).toEqual([
      { grantType: "authorization_code", resource: upstream.url, clientId: expect.any(String) },
    ]);

    expect(await whoami(target("alice"))).toEqual({ user: "alice", scopes: ["read", "offline_access"] });
    expect(await accessTokenFor(target("bob"))).toEqual({ ok: false, reason: "authorization-required" });
    await connect(upstream, target("bob"));
    expect(await whoami(target("bob"))).toMatchObject({ user: "bob" });
    expect(await whoami(target("alice"))).toMatchObject({ user: "alice" });

    // The same callback again (a reused link) changes nothing.
    const before = await accessTokenFor(target("alice"));
    expect(await finishConnect(target("alice"), alice.callback)).toEqual({ ok: false, reason: "unknown" });
    expect(await accessTokenFor(target("alice"))).toEqual(before);
    // The upstream only ever saw tokens its own authorization server issued.
    expect(upstream.bearers.length).toBeGreaterThan(0);
    expect(upstream.bearers.every((b) => b.issuedHere)).toBe(true);
    const listed = await listConnections(gatewayEnv, team, "alice");
    expect(listed).toMatchObject([{ server: "linear", user: "alice", status: "connected" }]);
    expect(JSON.stringify(listed)).not.toContain("at_");
  });

  it("refuses a callback finished by another user than the one who started it", async () => {
    const team = "oa-phish";
    const { upstream, target } = setUp(team);
    const flow = await openConnect(gatewayEnv, team, "alice", "linear");
    const begun = await beginConnect(target("alice"), flow.id);
    if (!begun.ok) throw new Error(begun.reason);
    // Bob is tricked into opening alice's link at the upstream and signs in there.
    const back = new URL(
      (await upstream.fetch(new Request(`${begun.url}&user=bob`))).headers.get("Location") ?? "",
    );
    const callback = {
      flow: flow.id,
      state: back.searchParams.get("state") ?? "",
      code: back.searchParams.get("code") ?? "",
    };
    expect(await finishConnect(target("bob"), callback)).toEqual({ ok: false, reason: "wrong-user" });
    expect(await beginConnect(target("bob"), flow.id)).toEqual({ ok: false, reason: "wrong-user" });
    expect(await accessTokenFor(target("bob"))).toEqual({ ok: false, reason: "authorization-required" });
    expect(await accessTokenFor(target("alice"))).toEqual({ ok: false, reason: "authorization-required" });
    expect(upstream.as.tokenRequests).toEqual([]);
  });

  it("refreshes ahead of expiry and after a 401 with no question; a refused refresh makes it expired", async () => {
    const team = "oa-refresh";
    const { upstream, target } = setUp(team, { accessTokenTtlSeconds: 30 });
    await connect(upstream, target("alice"));
    const first = [...upstream.as.accessTokens.keys()][0];
    // 30 s left is inside the minute ahead: the next call refreshes first.
    const ahead = await accessTokenFor(target("alice"));
    expect(ahead.ok && ahead.token).not.toBe(first);
    expect(upstream.as.tokenRequests.map((r) => [r.grantType, r.resource])).toEqual([
      ["authorization_code", upstream.url],
      ["refresh_token", upstream.url],
    ]);

    // The upstream stops accepting the access token: the call's 401 refreshes once and goes on.
    upstream.as.expireAccessTokens();
    const rejected = ahead.ok ? ahead.token : "";
    const again = await onUnauthorized(target("alice"), rejected);
    expect(again.ok && again.token).not.toBe(rejected);
    upstream.as.expireAccessTokens();
    expect(await whoami(target("alice"))).toMatchObject({ user: "alice" });

    // The grant is revoked at the upstream: the refresh is refused, the connection is expired.
    for (const grant of upstream.as.grants.values()) grant.revoked = true;
    upstream.as.expireAccessTokens();
    const current = await accessTokenFor(target("alice"));
    expect(current).toEqual({ ok: false, reason: "expired" });
    expect(await listConnections(gatewayEnv, team, "alice")).toMatchObject([{ status: "expired" }]);
    expect(upstream.bearers.every((b) => b.issuedHere)).toBe(true);
  });

  it("refreshes a connection once for concurrent calls (a rotated refresh token is never reused)", async () => {
    const team = "oa-once";
    const { upstream, target } = setUp(team, { accessTokenTtlSeconds: 30 });
    await connect(upstream, target("alice"));
    const answers = await Promise.all([1, 2, 3, 4].map(() => accessTokenFor(target("alice"))));
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(new Set(answers.map((a) => a.ok && a.token)).size).toBe(1);
    expect(upstream.as.tokenRequests.filter((r) => r.grantType === "refresh_token")).toHaveLength(1);
    expect(await whoami(target("alice"))).toMatchObject({ user: "alice" });
  });

  it("without a refresh token, serves the access token while it is good, then asks again", async () => {
    const team = "oa-norefresh";
    const { upstream, target } = setUp(team, { accessTokenTtlSeconds: 30, refreshTokens: false });
    await connect(upstream, target("alice"));
    const first = await accessTokenFor(target("alice"));
    expect(first).toEqual({ ok: true, token: [...upstream.as.accessTokens.keys()][0] });
    expect(await onUnauthorized(target("alice"), first.ok ? first.token : "")).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(await accessTokenFor(target("alice"))).toEqual({ ok: false, reason: "expired" });
  });

  it("disconnects: deleted here, revoked at the upstream's revocation endpoint", async () => {
    const team = "oa-revoke";
    const { upstream, target } = setUp(team);
    await connect(upstream, target("alice"));
    const token = await accessTokenFor(target("alice"));
    expect(await disconnect(target("alice"))).toEqual({ removed: true, revoked: true });
    expect(upstream.as.revoked).toHaveLength(2);
    expect(token.ok && upstream.as.grantOf(token.token)).toBeNull();
    expect(await accessTokenFor(target("alice"))).toEqual({ ok: false, reason: "authorization-required" });
    expect(await disconnect(target("alice"))).toEqual({ removed: false, revoked: false });
  });

  it("registers with the gateway's Client ID Metadata Document where the authorization server takes one", async () => {
    const team = "oa-cimd";
    const { upstream, target } = setUp(team, {
      registration: false,
      clientIdMetadataDocuments: true,
      fetchClientMetadata: async (url) =>
        url === `${GATEWAY}/connect/client-metadata.json`
          ? Response.json(clientMetadataDocument(GATEWAY))
          : new Response("not found", { status: 404 }),
    });
    const alice = await connect(upstream, target("alice"));
    expect(alice.finished).toMatchObject({ ok: true });
    expect([...upstream.as.clients.values()]).toEqual([
      expect.objectContaining({
        client_id: `${GATEWAY}/connect/client-metadata.json`,
        how: "metadata-document",
      }),
    ]);
    expect(await whoami(target("alice"))).toMatchObject({ user: "alice" });
  });

  it("uses the server entry's configured client", async () => {
    const team = "oa-configured";
    const client = {
      client_id: "configured-id",
      client_secret: "configured-secret",
      redirect_uris: [`${GATEWAY}/connect/callback`],
    };
    const { upstream, target } = setUp(
      team,
      { registration: false, clients: [client] },
      {
        clientId: client.client_id,
        clientSecret: client.client_secret,
      },
    );
    expect((await connect(upstream, target("alice"))).finished).toMatchObject({ ok: true });
    expect(upstream.as.tokenRequests).toEqual([expect.objectContaining({ clientId: "configured-id" })]);
    expect(await whoami(target("alice"))).toMatchObject({ user: "alice" });
  });

  it("sends a token only to the URL it was asked for, and refuses an authorization server without PKCE", async () => {
    const team = "oa-bounds";
    const { upstream, server, target } = setUp(team);
    await connect(upstream, target("alice"));
    const moved: ConnectionTarget = {
      ...target("alice"),
      server: { ...server, url: "http://127.0.0.1:10/mcp" },
    };
    expect(await accessTokenFor(moved)).toEqual({ ok: false, reason: "authorization-required" });

    const noPkce = { ...server, name: "nopkce" as const };
    noPkce.fetch = async (url, init) => {
      const response = await upstream.fetch(new Request(url, init));
      if (!String(url).endsWith("/.well-known/oauth-authorization-server")) return response;
      const { code_challenge_methods_supported: _, ...metadata } = (await response.json()) as Record<
        string,
        unknown
      >;
      return Response.json(metadata);
    };
    const flow = await openConnect(gatewayEnv, team, "alice", "nopkce");
    await expect(beginConnect({ ...target("alice"), server: noPkce }, flow.id)).rejects.toThrow(/PKCE S256/);
  });
});
