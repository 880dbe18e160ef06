import { auth, discoverOAuthServerInfo, type OAuthDiscoveryState } from "@modelcontextprotocol/client";
import type { FlowRefusal, OpenedFlow } from "../../../durable-objects/connections/answers";
import { base64url, sha256 } from "../../../shared/hash";
import type { GatewayEnv } from "../env";
import { ConnectError, UpstreamOAuthProvider } from "./provider";
import { type ConnectionTarget, connectionStore, fetchFor, scopeOf } from "./store";

/** A step of the connect flow that did not happen; nothing changed. */
export type ConnectRefusal = { ok: false; reason: FlowRefusal };

/**
 * A pending connect flow for a call that needs a connection: its id goes into the link the user
 * is given (the gateway's own page, `/connect/<id>` or as the edge routes it). Valid 15 minutes.
 */
export function openConnect(
  env: GatewayEnv,
  team: string,
  user: string,
  server: string,
): Promise<OpenedFlow> {
  return connectionStore(env, team).openFlow(team, user, server);
}

/** The server of `user`'s pending flow (for the connect page, and the callback before it finishes). */
export function connectFlow(
  env: GatewayEnv,
  team: string,
  user: string,
  flow: string,
): Promise<{ ok: true; server: string; expiresAt: number } | ConnectRefusal> {
  return connectionStore(env, team).flow(team, flow, user);
}

/**
 * `state` sent to the authorization server: `<team>.<flow>.<nonce>`, so the callback finds the
 * team and flow; only its SHA-256 is stored, and the flow is taken only with it.
 */
export function parseConnectState(state: string): { team: string; flow: string } | null {
  const match = /^([a-z][a-z0-9_-]{0,31})\.(cf_[A-Za-z0-9_-]{1,64})\.[A-Za-z0-9_-]{43}$/.exec(state);
  return match ? { team: match[1] as string, flow: match[2] as string } : null;
}

/**
 * The origin of `server`'s authorization endpoint, which the connect page's form post is answered
 * with a redirect to (so its `form-action` must name it): from the discovery the store keeps for
 * the server, else discovered now and kept. Throws when the server's metadata cannot be read.
 */
export async function authorizationOrigin(
  target: Omit<ConnectionTarget, "user" | "origin">,
): Promise<string> {
  const { env, team, server } = target;
  const store = connectionStore(env, team);
  const kept = (await store.registration(team, server.name)).discovery;
  let discovery = kept === null ? undefined : (JSON.parse(kept) as OAuthDiscoveryState);
  if (!discovery) {
    discovery = await discoverOAuthServerInfo(server.url, { fetchFn: fetchFor(server) });
    await store.saveDiscovery(team, server.name, JSON.stringify(discovery));
  }
  const endpoint = discovery.authorizationServerMetadata?.authorization_endpoint;
  return new URL(endpoint ?? discovery.authorizationServerUrl).origin;
}

/**
 * The user opened their link (and the edge checked they are the flow's user): the upstream's
 * authorization URL to send the browser to. Runs the SDK's `auth()` — discovery, registration
 * (the configured client, else a Client ID Metadata Document where the authorization server takes
 * them, else dynamic registration), PKCE S256 — and keeps the verifier (sealed), the state's hash
 * and the discovery with the flow. A flow can be started again until it is finished.
 */
export async function beginConnect(
  target: ConnectionTarget,
  flow: string,
): Promise<{ ok: true; url: string } | ConnectRefusal> {
  const { env, team, user, server } = target;
  const store = connectionStore(env, team);
  const peek = await store.flow(team, flow, user);
  if (!peek.ok) return peek;
  if (peek.server !== server.name) return { ok: false, reason: "wrong-server" };
  const state = `${team}.${flow}.${base64url(crypto.getRandomValues(new Uint8Array(32)))}`;
  const provider = new UpstreamOAuthProvider(scopeOf(target), { kind: "connect", state });
  const result = await auth(provider, {
    serverUrl: server.url,
    fetchFn: fetchFor(server),
    forceReauthorization: true,
    ...(server.auth.scopes?.length ? { scope: server.auth.scopes.join(" ") } : {}),
  });
  const { authorizationUrl, verifier, discovery } = provider;
  if (result !== "REDIRECT" || !authorizationUrl || !verifier || !discovery) {
    throw new ConnectError(`${server.name}: its authorization server gave no authorization URL`);
  }
  const started = await store.startFlow(team, flow, user, server.name, {
    stateHash: await sha256(state),
    verifier,
    discovery: JSON.stringify(discovery),
  });
  return started.ok ? { ok: true, url: authorizationUrl.href } : started;
}

/**
 * The authorization server sent the browser back with `code` and `state` (and `iss`): takes the
 * flow once — only for the user who started it and with its state — and exchanges the code (SDK:
 * the issuer checked against the one recorded with the flow, PKCE verifier, `resource`), keeping
 * the tokens sealed. A reused, expired or foreign flow changes nothing.
 */
export async function finishConnect(
  target: ConnectionTarget,
  callback: { flow: string; state: string; code: string; iss?: string | undefined },
): Promise<{ ok: true; server: string; scopes: string[] } | ConnectRefusal> {
  const { env, team, user, server } = target;
  const store = connectionStore(env, team);
  const peek = await store.flow(team, callback.flow, user);
  if (!peek.ok) return peek;
  if (peek.server !== server.name) return { ok: false, reason: "wrong-server" };
  const taken = await store.takeFlow(team, callback.flow, user, await sha256(callback.state));
  if (!taken.ok) return taken;
  const provider = new UpstreamOAuthProvider(scopeOf(target), {
    kind: "callback",
    verifier: taken.verifier,
    discovery: JSON.parse(taken.discovery) as OAuthDiscoveryState,
  });
  const result = await auth(provider, {
    serverUrl: server.url,
    fetchFn: fetchFor(server),
    authorizationCode: callback.code,
    ...(callback.iss === undefined ? {} : { iss: callback.iss }),
    ...(server.auth.scopes?.length ? { scope: server.auth.scopes.join(" ") } : {}),
  });
  if (result !== "AUTHORIZED" || !provider.saved) {
    throw new ConnectError(`${server.name}: the authorization code was not exchanged for tokens`);
  }
  return { ok: true, server: server.name, scopes: (provider.saved.scope ?? "").split(" ").filter(Boolean) };
}
