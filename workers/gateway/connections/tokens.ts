import {
  type AuthProvider,
  auth,
  checkResourceAllowed,
  type FetchLike,
  OAuthError,
  resourceUrlFromServerUrl,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { Connection } from "../../../durable-objects/connections/answers";
import { log } from "../../../shared/log";
import { ConnectError, type OAuthServer, UpstreamOAuthProvider } from "./provider";
import { type ConnectionTarget, connectionStore, fetchFor, scopeOf } from "./store";

/** An access token is refreshed when it has less than this left. */
export const REFRESH_AHEAD_MS = 60_000;
/** One refresh of a connection at a time, across isolates: the store's lease, this long at most. */
const LEASE_MS = 30_000;
/** How long a call waits for another isolate's refresh of the same connection. */
const WAIT_MS = 10_000;
const POLL_MS = 200;

/**
 * A valid access token for (team, user, server), or why there is none: `authorization-required`
 * (never connected, or connected for another URL of the server), `expired` (the user must connect
 * again: the next call asks), `unavailable` (the authorization server could not be reached; nothing
 * changed, try later).
 */
export type TokenAnswer =
  | { ok: true; token: string }
  | { ok: false; reason: "authorization-required" | "expired" | "unavailable" };

/** A connection needed and missing, thrown by `authProviderFor`'s provider into the SDK transport. */
export class ConnectionRequired extends Error {
  override name = "ConnectionRequired";
  constructor(
    readonly server: string,
    readonly reason: Exclude<TokenAnswer, { ok: true }>["reason"],
  ) {
    super(`${server}: ${reason}`);
  }
}

const refreshing = new Map<string, Promise<TokenAnswer>>();

/** The token to send `server` for this user: the stored one, refreshed first when it expires within a minute. */
export async function accessTokenFor(target: ConnectionTarget): Promise<TokenAnswer> {
  const found = await storedTokens(target);
  if (!found.ok) return found;
  const { connection, usable } = found;
  if (connection.expiresAt === null || connection.expiresAt - Date.now() > REFRESH_AHEAD_MS) {
    return { ok: true, token: usable.tokens.access_token };
  }
  return refreshOnce(target, connection, usable.tokens, false);
}

/**
 * The upstream answered 401 to `rejected`: one refresh (with fresh discovery, so a changed
 * authorization server is noticed and its tokens are not sent); a refresh that cannot be done or
 * fails makes the connection `expired`. When another call refreshed meanwhile, its token.
 */
export async function onUnauthorized(target: ConnectionTarget, rejected: string): Promise<TokenAnswer> {
  const found = await storedTokens(target);
  if (!found.ok) return found;
  const { connection, usable } = found;
  if (usable.tokens.access_token !== rejected) return { ok: true, token: usable.tokens.access_token };
  return refreshOnce(target, connection, usable.tokens, true);
}

/** The user's stored connection and its tokens when they may be sent to this server. */
async function storedTokens(target: ConnectionTarget) {
  const connection = await connectionStore(target.env, target.team).connection(
    target.team,
    target.user,
    target.server.name,
  );
  if (!connection) return { ok: false as const, reason: "authorization-required" as const };
  const usable = usableTokens(connection, target.server);
  if (!usable.ok) return usable;
  return { ok: true as const, connection, usable };
}

/** The SDK transport's `authProvider` for one call: `token()` before each request, one refresh on a 401. */
export function authProviderFor(target: ConnectionTarget): AuthProvider {
  let current = "";
  const take = (answer: TokenAnswer): string => {
    if (!answer.ok) throw new ConnectionRequired(target.server.name, answer.reason);
    current = answer.token;
    return answer.token;
  };
  return {
    token: async () => take(await accessTokenFor(target)),
    onUnauthorized: async () => {
      take(await onUnauthorized(target, current));
    },
  };
}

function usableTokens(
  connection: Connection,
  server: OAuthServer,
): { ok: true; tokens: StoredOAuthTokens } | Exclude<TokenAnswer, { ok: true }> {
  const tokens =
    connection.status === "connected" && connection.tokens ? parseTokens(connection.tokens) : null;
  if (!tokens) return { ok: false, reason: "expired" };
  // A token goes only to the resource it was asked for: a server whose url changed needs a new connection.
  const here = resourceUrlFromServerUrl(server.url);
  if (!checkResourceAllowed({ requestedResource: here, configuredResource: connection.resource })) {
    return { ok: false, reason: "authorization-required" };
  }
  return { ok: true, tokens };
}

function parseTokens(text: string): StoredOAuthTokens | null {
  try {
    const tokens = JSON.parse(text) as StoredOAuthTokens;
    return typeof tokens?.access_token === "string" && tokens.access_token !== "" ? tokens : null;
  } catch {
    return null;
  }
}

/** One refresh per connection in this isolate at a time; concurrent callers share its answer. */
function refreshOnce(
  target: ConnectionTarget,
  connection: Connection,
  tokens: StoredOAuthTokens,
  rejected: boolean,
): Promise<TokenAnswer> {
  const key = JSON.stringify([target.team, target.user, target.server.name]);
  let running = refreshing.get(key);
  if (!running) {
    running = refresh(target, connection, tokens, rejected).finally(() => refreshing.delete(key));
    refreshing.set(key, running);
  }
  return running;
}

async function refresh(
  target: ConnectionTarget,
  connection: Connection,
  tokens: StoredOAuthTokens,
  rejected: boolean,
): Promise<TokenAnswer> {
  const { env, team, user, server } = target;
  const store = connectionStore(env, team);
  const stillGood = (): TokenAnswer =>
    !rejected && connection.expiresAt !== null && connection.expiresAt > Date.now()
      ? { ok: true, token: tokens.access_token }
      : { ok: false, reason: "unavailable" };
  const expire = async (): Promise<TokenAnswer> => {
    await store.expireConnection(team, user, server.name);
    return { ok: false, reason: "expired" };
  };
  if (!tokens.refresh_token) {
    // Nothing to refresh with: the access token serves while it is good, then the user is asked again.
    const still = stillGood();
    return still.ok ? still : expire();
  }
  if (!(await store.claimRefresh(team, user, server.name, LEASE_MS)))
    return waitForOther(target, connection, stillGood);
  const trouble = { seen: false };
  const provider = new UpstreamOAuthProvider(scopeOf(target), {
    kind: "refresh",
    tokens,
    rediscover: rejected,
  });
  try {
    const result = await auth(provider, {
      serverUrl: server.url,
      fetchFn: watched(fetchFor(server), trouble),
    });
    if (result === "AUTHORIZED" && provider.saved) return { ok: true, token: provider.saved.access_token };
  } catch (err) {
    // Never the message: an authorization server's error text is not ours to log.
    log("warn", "upstream token refresh failed", { team, server: server.name, error: (err as Error)?.name });
    if (!(err instanceof OAuthError || err instanceof ConnectError || provider.tokensInvalidated))
      return stillGood();
    return expire();
  }
  // The SDK fell back to a new authorization: the refresh token was refused (invalid_grant), or the
  // authorization server was not reachable (then nothing changes and a later call tries again).
  return trouble.seen && !provider.tokensInvalidated ? stillGood() : expire();
}

/** Another isolate holds the refresh: its outcome once the connection changes, or after WAIT_MS. */
async function waitForOther(
  target: ConnectionTarget,
  before: Connection,
  otherwise: () => TokenAnswer,
): Promise<TokenAnswer> {
  const store = connectionStore(target.env, target.team);
  for (let waited = 0; waited < WAIT_MS; waited += POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const now = await store.connection(target.team, target.user, target.server.name);
    if (!now) return { ok: false, reason: "authorization-required" };
    if (now.updatedAt !== before.updatedAt || now.status !== before.status) {
      const usable = usableTokens(now, target.server);
      return usable.ok ? { ok: true, token: usable.tokens.access_token } : usable;
    }
  }
  return otherwise();
}

/** `fetchFn`, noting in `trouble` a network failure or a 5xx answer (a refresh that may work later). */
function watched(fetchFn: FetchLike, trouble: { seen: boolean }): FetchLike {
  return async (url, init) => {
    try {
      const response = await fetchFn(url, init);
      if (response.status >= 500) trouble.seen = true;
      return response;
    } catch (err) {
      trouble.seen = true;
      throw err;
    }
  };
}
