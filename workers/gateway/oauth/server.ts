import { GrantType, OAuthAuthorizationServer, OAuthError } from "@cloudflare/workers-oauth-provider";
import { log } from "../../../shared/log";
import type { GatewayEnv } from "../env";
import { type GrantProps, grantHolder } from "./grant-key";

/** Where the OAuth endpoints live (docs/http-api.md "OAuth"). */
export const OAUTH_PATHS = {
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  resourceMetadata: "/.well-known/oauth-protected-resource",
  serverMetadata: "/.well-known/oauth-authorization-server",
} as const;

/** The one scope: everything the granting key's team may do, as with the key itself. */
export const SCOPE = "mcp";

/** Access tokens live an hour; a grant (its refresh token) 30 days, the library's defaults made explicit. */
const ACCESS_TOKEN_TTL = 3600;
const REFRESH_TOKEN_TTL = 30 * 86_400;

/** Per-isolate state: the authorization server of each origin seen (at most MAX_ORIGINS, then afresh). */
const servers = new Map<string, OAuthAuthorizationServer<GatewayEnv> | null>();
const MAX_ORIGINS = 16;

/**
 * The authorization server for the origin the gateway is reached at (`https://gw.example.com`, or
 * `http://127.0.0.1:8787` under `wrangler dev`): issuer and sole protected resource are that origin,
 * so one token covers /mcp and /v1/*. Built once per origin and isolate; null when the origin cannot
 * be an issuer (plain http on a host other than loopback), in which case OAuth is off there.
 */
export function authorizationServer(origin: string): OAuthAuthorizationServer<GatewayEnv> | null {
  const known = servers.get(origin);
  if (known !== undefined) return known;
  let server: OAuthAuthorizationServer<GatewayEnv> | null;
  try {
    server = new OAuthAuthorizationServer<GatewayEnv>({
      issuer: origin,
      resources: [origin],
      authorizeEndpoint: OAUTH_PATHS.authorize,
      tokenEndpoint: OAUTH_PATHS.token,
      clientRegistrationEndpoint: OAUTH_PATHS.register,
      scopesSupported: [SCOPE, "offline_access"],
      accessTokenTTL: ACCESS_TOKEN_TTL,
      refreshTokenTTL: REFRESH_TOKEN_TTL,
      tokenExchangeCallback: refuseRevokedKey,
      onError: ({ status, code, internal }) => {
        log("info", "oauth error", { status, code, category: internal.category, reason: internal.reason });
      },
    });
  } catch {
    server = null;
  }
  if (servers.size >= MAX_ORIGINS) servers.clear();
  servers.set(origin, server);
  return server;
}

/**
 * Grant storage (listing and revoking a key's grants) does not depend on the issuer, and the admin
 * functions are also called by the dashboard (routes/admin-service.ts), not only from a request to
 * the admin API's origin: they use this one.
 */
export function grantStore(env: GatewayEnv) {
  const server = authorizationServer("https://oauth.invalid");
  if (!server) throw new Error("unreachable: the grant store's issuer is https");
  return server.getOAuthApi(env);
}

/** A refresh of a grant whose key was revoked (or a rotated DEV_API_KEY) fails, and ends the grant. */
async function refuseRevokedKey(options: {
  grantType: GrantType;
  props: unknown;
  env: GatewayEnv;
}): Promise<void> {
  if (options.grantType !== GrantType.REFRESH_TOKEN) return;
  if (await grantHolder(options.env, options.props as GrantProps)) return;
  throw new OAuthError("invalid_grant", { description: "The API key that granted this access was revoked" });
}
