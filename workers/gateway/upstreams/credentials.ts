import type { AuthProvider } from "@modelcontextprotocol/client";
import { sha256 } from "../../../shared/hash";
import { connectionStore, oauthServer } from "../connections/store";
import { authProviderFor, ConnectionRequired } from "../connections/tokens";
import type { GatewayEnv } from "../env";
import { type UpstreamServer, USER_SECRET_REF } from "./config";

/** Who calls an upstream: the user whose own connection or secrets a per-user server needs. */
export interface UpstreamCaller {
  env: GatewayEnv;
  team: string;
  user: string;
  /** the gateway's origin: its OAuth callback and metadata document are there */
  origin: string;
}

/**
 * Why a per-user server cannot be called for this user yet: no connection (`authorization-required`),
 * one that needs signing in again (`expired`), the authorization server not reachable
 * (`unavailable`), or a `${user:NAME}` secret the user has not set (`secret-missing`).
 */
export class CredentialsMissing extends Error {
  override name = "CredentialsMissing";
  constructor(
    readonly server: string,
    readonly reason: "authorization-required" | "expired" | "unavailable" | "secret-missing",
    readonly secret?: string,
  ) {
    super(secret ? `${server}: your secret ${secret} is not set` : `${server}: ${reason}`);
  }
}

/** Whether a server's calls depend on who makes them (per-user OAuth, or `${user:NAME}` headers). */
export const isPerUser = (server: UpstreamServer): boolean =>
  server.auth !== undefined || server.userHeaders !== undefined;

/** A per-user server as one user reaches it: user's headers filled in, their OAuth provider attached. */
export interface UserUpstream extends UpstreamServer {
  authProvider?: AuthProvider;
  /** separates this user's idle upstream sessions and cached tool lists from other users' */
  userScope: string;
}

/**
 * `server` as `caller`'s user reaches it; the server itself when nothing in it is per user. Throws
 * CredentialsMissing for a `${user:NAME}` the user has not set; a missing OAuth connection surfaces
 * when the transport asks for the token (`missingCredentials` finds it in the error).
 */
export async function asCaller(
  caller: UpstreamCaller,
  server: UpstreamServer,
): Promise<UpstreamServer | UserUpstream> {
  if (!isPerUser(server)) return server;
  const headers = { ...server.headers };
  if (server.userHeaders) {
    const store = connectionStore(caller.env, caller.team);
    for (const [header, template] of Object.entries(server.userHeaders)) {
      let value = template;
      for (const [ref, name] of template.matchAll(USER_SECRET_REF)) {
        const secret = await store.userSecret(caller.team, caller.user, name as string);
        if (secret === null) throw new CredentialsMissing(server.name, "secret-missing", name);
        value = value.replace(ref, secret);
      }
      headers[header] = value;
    }
  }
  const view: UserUpstream = {
    ...server,
    headers,
    userScope: (await sha256(`user:${caller.user}`)).slice(0, 16),
  };
  if (server.auth) {
    view.authProvider = authProviderFor({
      env: caller.env,
      team: caller.team,
      user: caller.user,
      origin: caller.origin,
      server: oauthServer({ ...server, auth: server.auth }),
    });
  }
  return view;
}

/** The missing credentials an upstream call failed on, wherever the SDK wrapped them; undefined for any other failure. */
export function missingCredentials(err: unknown): CredentialsMissing | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof CredentialsMissing) return e;
    if (e instanceof ConnectionRequired) return new CredentialsMissing(e.server, e.reason);
  }
  return undefined;
}
