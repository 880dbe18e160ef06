import {
  insufficientScope,
  OAuthAuthorizationServer,
  OAuthResourceServer,
} from "@cloudflare/workers-oauth-provider";
import { serveMcp } from "./mcp";

export interface DemoEnv {
  OAUTH_KV: KVNamespace;
}

/** What a grant stores (encrypted by the library) and every token of it carries to the tools. */
export interface DemoProps {
  user: string;
}

export const PATHS = {
  authorize: "/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  mcp: "/mcp",
  resourceMetadata: "/.well-known/oauth-protected-resource",
} as const;

/** The one scope: read the signed-in user's notes and profile. */
export const SCOPE = "notes";

/** Access tokens live an hour, grants (refresh tokens, rotated on use) 30 days. */
const ACCESS_TOKEN_TTL = 3600;
const REFRESH_TOKEN_TTL = 30 * 86_400;

export interface Roles {
  authorization: OAuthAuthorizationServer<DemoEnv>;
  resource: OAuthResourceServer<DemoEnv, DemoProps>;
}

const byOrigin = new Map<string, Roles | null>();
const MAX_ORIGINS = 16;

/**
 * The authorization server (issuer: the origin the demo is reached at) and its one protected
 * resource, `<origin>/mcp`, built once per origin and isolate (`wrangler dev` picks the port);
 * null where the origin cannot be an issuer (plain http on a host other than loopback).
 */
export function rolesFor(origin: string): Roles | null {
  const known = byOrigin.get(origin);
  if (known !== undefined) return known;
  let roles: Roles | null;
  try {
    const authorization = new OAuthAuthorizationServer<DemoEnv>({
      issuer: origin,
      resources: [`${origin}${PATHS.mcp}`],
      authorizeEndpoint: PATHS.authorize,
      tokenEndpoint: PATHS.token,
      clientRegistrationEndpoint: PATHS.register,
      scopesSupported: [SCOPE, "offline_access"],
      accessTokenTTL: ACCESS_TOKEN_TTL,
      refreshTokenTTL: REFRESH_TOKEN_TTL,
    });
    const resource = new OAuthResourceServer<DemoEnv, DemoProps>({
      resourceMetadata: {
        resource: `${origin}${PATHS.mcp}`,
        authorization_servers: [origin],
        resource_name: "OAuth demo notes",
      },
      requiredScopes: [SCOPE],
      validateToken: (env) => (target, token) => authorization.validateToken<DemoProps>(target, token, env),
      handler: {
        fetch(request, _env, ctx) {
          if (!ctx.auth.scope.includes(SCOPE)) return insufficientScope(ctx.auth, [SCOPE]);
          const caller = { user: ctx.props.user, clientId: ctx.auth.clientId ?? "", scopes: ctx.auth.scope };
          return serveMcp(request, caller, ctx.auth.token);
        },
      },
    });
    roles = { authorization, resource };
  } catch {
    roles = null;
  }
  if (byOrigin.size >= MAX_ORIGINS) byOrigin.clear();
  byOrigin.set(origin, roles);
  return roles;
}
