import type { Context, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "./app-env";
import { requireConfig } from "./config";
import { HttpError } from "./errors";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * An `Origin` is allowed when it is listed in ALLOWED_ORIGINS (or that list is `*`), or is a loopback
 * origin while the gateway itself is served on loopback (local development). Matching the request's
 * own origin is no test: that comes from the Host header, which a DNS-rebound page (evil.example
 * resolving to 127.0.0.1) sets to its own name, so its Origin would always "match".
 */
export function isAllowedOrigin(origin: string, requestUrl: string, allowed: string[]): boolean {
  if (allowed.includes("*") || allowed.includes(origin)) return true;
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return false;
  }
  return LOOPBACK.has(from.hostname) && LOOPBACK.has(new URL(requestUrl).hostname);
}

/** Whether a URL's host is a loopback one (local development: cookies are not `Secure` there). */
export function onLoopback(url: string): boolean {
  return LOOPBACK.has(new URL(url).hostname);
}

/**
 * The Origin of a post to one of the gateway's own pages when it is another site's: not this
 * origin, and not allowed as `isAllowedOrigin` allows. The pages exempt from `originGuard` that
 * act on a browser's cookie refuse such a post themselves (CSRF).
 */
export function foreignOrigin(c: Context<AppEnv>): string | undefined {
  const origin = c.req.header("Origin");
  if (
    origin === undefined ||
    origin === new URL(c.req.url).origin ||
    isAllowedOrigin(origin, c.req.url, requireConfig(c).allowedOrigins)
  )
    return undefined;
  return origin;
}

/**
 * A present, foreign Origin gets 403 (DNS-rebinding defence the MCP transport spec asks for). The
 * gateway's own pages are exempt, posting to themselves: every post of the approval page
 * (`/approve/*`) carries the team's API key in its body, and every post of the dashboard
 * (`/dashboard/*`) a SameSite=Strict session cookie and its CSRF token (dashboard/index.ts), which a
 * rebound or foreign page does not have. So are the OAuth endpoints (`/oauth/*`, `/.well-known/*`):
 * metadata, registration and token requests carry no ambient credential and are made cross-origin by
 * design, and the consent page's post checks its Origin itself and carries a browser-bound,
 * single-use handle (oauth/authorize.ts). So are the connect pages (`/connect/*`): their post checks
 * its Origin itself (`foreignOrigin`) and carries the user's API key or their signed cookie
 * (routes/connect.ts); the callback is a redirect from the upstream's authorization server.
 */
export const originGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header("Origin");
  if (
    origin !== undefined &&
    !c.req.path.startsWith("/approve/") &&
    c.req.path !== "/dashboard" &&
    !c.req.path.startsWith("/dashboard/") &&
    !c.req.path.startsWith("/oauth/") &&
    !c.req.path.startsWith("/.well-known/") &&
    !c.req.path.startsWith("/connect/") &&
    !isAllowedOrigin(origin, c.req.url, requireConfig(c).allowedOrigins)
  ) {
    throw new HttpError(
      403,
      "forbidden_origin",
      `Origin ${origin} is not allowed; add it to ALLOWED_ORIGINS`,
    );
  }
  await next();
};

/** CORS for browser clients: they may send auth and MCP headers and read the session id and a download's ETag and name. */
export const corsPolicy = cors({
  origin: (origin) => origin,
  allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
  allowHeaders: [
    "Authorization",
    "X-API-Key",
    "Content-Type",
    "Accept",
    "Mcp-Session-Id",
    "Mcp-Protocol-Version",
    "Last-Event-ID",
    "X-Request-Id",
    "If-None-Match",
  ],
  exposeHeaders: [
    "Mcp-Session-Id",
    "Mcp-Protocol-Version",
    "X-Request-Id",
    "WWW-Authenticate",
    "Retry-After",
    "ETag",
    "Content-Disposition",
  ],
  maxAge: 600,
});
