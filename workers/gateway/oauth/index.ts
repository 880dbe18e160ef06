// OAuth 2.1 for web connectors (docs/oauth.md), on @cloudflare/workers-oauth-provider: the routes
// (metadata, registration, token, consent page), the token check the API-key middleware calls, and
// the revocation of a key's grants the admin API calls.

export { revokeGrantsOfKey } from "./revoke";
export { oauthRoutes } from "./routes";
export { bearerChallenge, isOAuthToken, oauthIdentity } from "./tokens";
