import { AuthorizationError, type AuthRequest, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { keyHolder } from "../context/api-key";
import type { AppEnv } from "../http/app-env";
import { requireConfig } from "../http/config";
import { foreignOrigin } from "../http/origin";
import type { ApiKey } from "../teams/schema";
import { consentPage, problemPage } from "./consent-page";
import { grantPropsFor } from "./grant-key";
import { authorizationServer, OAUTH_PATHS, SCOPE } from "./server";

const Form = z.object({
  handle: z.string().min(1).max(200),
  q: z.string().max(8_000).default(""),
  key: z.string().max(1_000).default(""),
  decision: z.enum(["allow", "deny"]).default("allow"),
});

/** This origin's OAuth helpers, or undefined where OAuth is off (plain http on a non-loopback host). */
function helpers(c: Context<AppEnv>): OAuthHelpers | undefined {
  return authorizationServer(new URL(c.req.url).origin)?.getOAuthApi(c.env);
}

const OFF = "OAuth is served only over https (or http on localhost for development).";

/** The authorization request of a query the page showed before, validated again from scratch. */
async function parseQuery(oauth: OAuthHelpers, origin: string, query: string): Promise<AuthRequest> {
  return oauth.parseAuthRequest(new Request(`${origin}${OAUTH_PATHS.authorize}?${query}`));
}

/** The key typed on the page, checked as the API would: DEV_API_KEY (team default) or a stored key. */
async function typedKey(c: Context<AppEnv>, key: string): Promise<ApiKey | null> {
  return key ? keyHolder(c.env, requireConfig(c).devApiKey, key) : null;
}

/** A failed authorization request: back to the client when the library validated where to, else shown here. */
function refused(c: Context<AppEnv>, err: unknown) {
  if (err instanceof AuthorizationError) {
    if (err.redirectTo) return c.redirect(err.redirectTo, 302);
    return problemPage(c, err.description, 400);
  }
  throw err;
}

/**
 * The authorization endpoint (docs/oauth.md): GET shows who asks and where access goes, and asks for
 * a team API key; POST checks the page's own Origin, the key, and the browser-bound, single-use
 * handle (`beginConsent()`/`approveConsent()`), then completes the grant as that key's team.
 */
export const authorizeRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const oauth = helpers(c);
    if (!oauth) return problemPage(c, OFF, 404);
    let request: AuthRequest;
    try {
      request = await oauth.parseAuthRequest(c.req.raw);
    } catch (err) {
      return refused(c, err);
    }
    const details = await oauth.describeConsent(request);
    const consent = await oauth.beginConsent(request);
    const query = new URL(c.req.url).search.slice(1);
    return consentPage(c, { details, handle: consent.handle, query }, 200, consent.headers);
  })
  .post("/", async (c) => {
    const oauth = helpers(c);
    if (!oauth) return problemPage(c, OFF, 404);
    const own = new URL(c.req.url).origin;
    const foreign = foreignOrigin(c);
    if (foreign) return problemPage(c, `A form of another site (${foreign}) cannot sign in here.`, 403);
    const form = Form.safeParse(await c.req.parseBody());
    if (!form.success) return problemPage(c, "The form is incomplete: reload the page.", 400);
    const { handle, q, key, decision } = form.data;
    try {
      if (decision === "deny") {
        const denied = await oauth.denyConsent(c.req.raw, handle);
        return new Response(null, { status: 302, headers: denied.headers });
      }
      const holder = await typedKey(c, key);
      if (!holder) {
        const details = await oauth.describeConsent(await parseQuery(oauth, own, q));
        const error = key
          ? "That is not a valid team API key (it may have been revoked). Check it and try again."
          : "Enter a team API key.";
        return consentPage(c, { details, handle, query: q, error }, 401);
      }
      const approved = await oauth.approveConsent(c.req.raw, handle);
      const { redirectTo } = await oauth.completeAuthorization({
        request: approved.request,
        userId: holder.keyId,
        metadata: { team: holder.team, keyId: holder.keyId },
        scope: [SCOPE],
        props: await grantPropsFor(holder, requireConfig(c).devApiKey),
      });
      approved.headers.set("Location", redirectTo);
      return new Response(null, { status: 302, headers: approved.headers });
    } catch (err) {
      if (err instanceof AuthorizationError)
        return problemPage(
          c,
          `${err.description}. This page works once, for 10 minutes, in the browser that opened it.`,
          400,
        );
      throw err;
    }
  });
