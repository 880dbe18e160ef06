import type { GatewayEnv } from "../env";
import type { ApiKey } from "../teams/schema";
import { grantHolder } from "./grant-key";
import { authorizationServer, OAUTH_PATHS } from "./server";

/**
 * Whether a presented bearer is one of our OAuth access tokens rather than an API key: the library's
 * tokens are `<userId>:<grantId>:<secret>`; API keys (`cmk_…`, base64url) never hold a colon.
 */
export function isOAuthToken(presented: string): boolean {
  return presented.split(":").length === 3;
}

/**
 * The team and key an OAuth access token acts as: the token must be one this origin's authorization
 * server issued for this origin (audience), unexpired (one KV read of its hashed record), and the
 * API key that granted it must still exist (one more). Null otherwise.
 */
export async function oauthIdentity(
  env: GatewayEnv,
  requestUrl: string,
  token: string,
): Promise<ApiKey | null> {
  const origin = new URL(requestUrl).origin;
  const server = authorizationServer(origin);
  if (!server) return null;
  const validated = await server.validateToken(origin, token, env);
  if (!validated) return null;
  return grantHolder(env, validated.props);
}

/**
 * The challenge of a 401 on /mcp and /v1/*: the realm as before, and where MCP clients find the
 * protected resource metadata (RFC 9728), when OAuth is served at this origin.
 */
export function bearerChallenge(requestUrl: string | undefined, error?: "invalid_token"): string {
  let challenge = 'Bearer realm="mcp"';
  if (requestUrl !== undefined) {
    const origin = new URL(requestUrl).origin;
    if (authorizationServer(origin))
      challenge += `, resource_metadata="${origin}${OAUTH_PATHS.resourceMetadata}"`;
  }
  if (error) challenge += `, error="${error}"`;
  return challenge;
}
