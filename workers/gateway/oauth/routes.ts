import { type Context, Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { HttpError } from "../http/errors";
import { authorizeRoutes } from "./authorize";
import { authorizationServer, OAUTH_PATHS, SCOPE } from "./server";

const OFF = "OAuth is served only over https (or http on a loopback host for development)";

/** The library serves these: authorization server metadata, token (and revocation), registration. */
async function library(c: Context<AppEnv>): Promise<Response> {
  const server = authorizationServer(new URL(c.req.url).origin);
  if (!server) throw new HttpError(404, "not_found", OFF);
  return server.fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext);
}

/**
 * OAuth 2.1 for web connectors (docs/oauth.md): RFC 9728 protected resource metadata (the resource
 * is this origin, so one token covers /mcp and /v1/*), RFC 8414 authorization server metadata,
 * dynamic client registration, the token endpoint (PKCE S256, refresh, revocation) and the consent
 * page. Other /.well-known/ paths are JSON 404s.
 */
export const oauthRoutes = new Hono<AppEnv>()
  .get(OAUTH_PATHS.resourceMetadata, (c) => {
    const origin = new URL(c.req.url).origin;
    if (!authorizationServer(origin)) throw new HttpError(404, "not_found", OFF);
    return c.json(
      {
        resource: origin,
        authorization_servers: [origin],
        bearer_methods_supported: ["header"],
        scopes_supported: [SCOPE],
        resource_name: "Code-execution MCP gateway",
      },
      200,
      { "Cache-Control": "public, max-age=300" },
    );
  })
  .all(OAUTH_PATHS.serverMetadata, library)
  .all(OAUTH_PATHS.token, library)
  .all(OAUTH_PATHS.register, library)
  .route(OAUTH_PATHS.authorize, authorizeRoutes)
  .all("/.well-known/*", (c) => {
    throw new HttpError(404, "not_found", `No metadata at ${c.req.path}`);
  });
