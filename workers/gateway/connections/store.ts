import type { FetchLike } from "@modelcontextprotocol/client";
import type { ConnectionStoreApi } from "../../../durable-objects/connections/answers";
import type { GatewayEnv } from "../env";
import type { OAuthSettings } from "./client-metadata";
import type { OAuthServer, ProviderScope } from "./provider";

/** One (team, user, server) on the gateway's origin, as the functions of connections/ take it. */
export interface ConnectionTarget {
  env: GatewayEnv;
  team: string;
  user: string;
  server: OAuthServer;
  /** the gateway's origin, where its callback and client metadata document are served */
  origin: string;
}

/** The team's `ConnectionStore` (one object per team, docs/storage-schema.md). */
export function connectionStore(env: GatewayEnv, team: string): ConnectionStoreApi {
  const namespace = env.CONNECTIONS;
  if (!namespace) throw new Error("Per-user connections are not configured (no CONNECTIONS binding)");
  return namespace.get(namespace.idFromName(team)) as unknown as ConnectionStoreApi;
}

/** How a server and its authorization server are reached: its service binding, else fetch. */
export function fetchFor(server: OAuthServer): FetchLike {
  return server.fetch ?? ((url, init) => fetch(url, init));
}

/** A configured server with `auth` as connections/ reaches it: through its service binding, if any. */
export function oauthServer(server: {
  name: string;
  url: string;
  service?: Fetcher;
  auth: OAuthSettings;
}): OAuthServer {
  const { name, url, service, auth } = server;
  return { name, url, auth, ...(service ? { fetch: (to, init) => service.fetch(String(to), init) } : {}) };
}

export function scopeOf({ env, team, user, server, origin }: ConnectionTarget): ProviderScope {
  return { store: connectionStore(env, team), team, user, server, origin };
}
