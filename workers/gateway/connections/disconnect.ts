import {
  assertSecureTokenEndpoint,
  discoverOAuthServerInfo,
  type OAuthClientInformationMixed,
  type OAuthDiscoveryState,
  type StoredOAuthTokens,
  selectClientAuthMethod,
} from "@modelcontextprotocol/client";
import type { ConnectionView } from "../../../shared/contract/connections";
import { log } from "../../../shared/log";
import type { GatewayEnv } from "../env";
import type { OAuthServer } from "./provider";
import { type ConnectionTarget, connectionStore, fetchFor } from "./store";

/** Whose connection to end: revocation needs no origin (nothing is redirected). */
type Holder = Omit<ConnectionTarget, "origin">;

/** A user's connections (`user` given), or the whole team's (operators): never a token. */
export function listConnections(env: GatewayEnv, team: string, user?: string): Promise<ConnectionView[]> {
  return connectionStore(env, team).listConnections(team, user);
}

/**
 * Ends a connection: deleted here first (no call uses it after this), then its tokens revoked at
 * the upstream's authorization server where its metadata names a revocation endpoint (RFC 7009),
 * and only at the authorization server that issued them. `revoked` says whether that happened.
 */
export async function disconnect(target: Holder): Promise<{ removed: boolean; revoked: boolean }> {
  const { env, team, user, server } = target;
  const { removed, tokens } = await connectionStore(env, team).removeConnection(team, user, server.name);
  if (!tokens) return { removed, revoked: false };
  try {
    return { removed, revoked: await revoke(target, JSON.parse(tokens) as StoredOAuthTokens) };
  } catch (err) {
    log("warn", "upstream token revocation failed", {
      team,
      server: server.name,
      error: (err as Error)?.name,
    });
    return { removed, revoked: false };
  }
}

async function revoke(target: Holder, tokens: StoredOAuthTokens): Promise<boolean> {
  const { env, team, server } = target;
  const registration = await connectionStore(env, team).registration(team, server.name);
  const fetchFn = fetchFor(server);
  const discovery: OAuthDiscoveryState = registration.discovery
    ? JSON.parse(registration.discovery)
    : await discoverOAuthServerInfo(server.url, { fetchFn });
  // Both metadata kinds are kept whole (loose objects); OpenID's type lacks the revocation fields.
  const metadata = discovery.authorizationServerMetadata as
    | (NonNullable<OAuthDiscoveryState["authorizationServerMetadata"]> & {
        revocation_endpoint?: string;
        revocation_endpoint_auth_methods_supported?: string[];
      })
    | undefined;
  const endpoint = metadata?.revocation_endpoint;
  if (!metadata || !endpoint || (tokens.issuer && !sameIssuer(tokens.issuer, metadata.issuer))) return false;
  const { clientId, clientSecret } = server.auth;
  const client: OAuthClientInformationMixed | null = clientId
    ? { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) }
    : registration.client
      ? JSON.parse(registration.client)
      : null;
  if (!client) return false;
  const url = assertSecureTokenEndpoint(endpoint);
  const methods =
    metadata.revocation_endpoint_auth_methods_supported ??
    metadata.token_endpoint_auth_methods_supported ??
    [];
  const method = selectClientAuthMethod(client, methods);
  let revoked = true;
  for (const [token, hint] of [
    [tokens.refresh_token, "refresh_token"],
    [tokens.access_token, "access_token"],
  ] as const) {
    if (!token) continue;
    const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
    const body = new URLSearchParams({ token, token_type_hint: hint });
    if (method === "client_secret_basic")
      headers.set("Authorization", `Basic ${btoa(`${client.client_id}:${client.client_secret ?? ""}`)}`);
    else body.set("client_id", client.client_id);
    if (method === "client_secret_post" && client.client_secret)
      body.set("client_secret", client.client_secret);
    const response = await fetchFn(url, { method: "POST", headers, body, redirect: "manual" });
    await response.body?.cancel();
    revoked &&= response.ok;
  }
  return revoked;
}

/**
 * Ends every connection of each of `users` and deletes their secrets and pending flows (their key,
 * or their team, is gone): revoked upstream where the server is still configured with `auth`
 * (`servers`), else deleted here only. How many connections ended.
 */
export async function forgetUsers(
  env: GatewayEnv,
  team: string,
  users: Iterable<string>,
  servers: OAuthServer[],
): Promise<number> {
  const store = connectionStore(env, team);
  let ended = 0;
  for (const user of new Set(users)) {
    for (const { server } of await store.listConnections(team, user)) {
      if (await endConnection({ env, team, user }, server, servers)) ended++;
    }
    await store.forgetUser(team, user);
  }
  return ended;
}

/**
 * Ends `user`'s connection to the server named `name`: revoked upstream where `servers` has it
 * (configured with `auth`), else deleted here only (its server is gone from the config). Null when
 * there was none.
 */
export async function endConnection(
  holder: Omit<Holder, "server">,
  name: string,
  servers: OAuthServer[],
): Promise<{ revoked: boolean } | null> {
  const server = servers.find((s) => s.name === name);
  if (server) {
    const { removed, revoked } = await disconnect({ ...holder, server });
    return removed ? { revoked } : null;
  }
  const { env, team, user } = holder;
  const { removed } = await connectionStore(env, team).removeConnection(team, user, name);
  return removed ? { revoked: false } : null;
}

/** RFC 8414 issuers, tolerating one trailing slash (as the SDK does). */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, "") === b.replace(/\/$/, "");
}
