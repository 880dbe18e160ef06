import { type Context, Hono, type MiddlewareHandler } from "hono";
import { html } from "hono/html";
import { sameSecret } from "../context/api-key";
import { adminToken } from "../env";
import type { AppEnv } from "../http/app-env";
import { foreignOrigin } from "../http/origin";
import { assetRoutes } from "./assets";
import { notice, page } from "./layout";
import { approvalPages } from "./pages/approvals";
import { auditPages } from "./pages/audit";
import { overviewPages } from "./pages/overview";
import { teamPages } from "./pages/teams";
import { currentSignIn, endSignIn, sameCsrf, startSignIn } from "./sign-in";

/** Signed in, and for a post: the sign-in's CSRF token and no foreign Origin. */
const requireOperator: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = adminToken(c.env);
  if (!token) return off(c);
  const signIn = await currentSignIn(c, token);
  const post = c.req.method === "POST";
  if (!signIn) {
    if (!post) return c.redirect("/dashboard/sign-in", 303);
    return page(c, "Sign in", signInForm("Your session ended: sign in again."), undefined, 401);
  }
  if (post) {
    const origin = foreignOrigin(c);
    if (origin)
      return page(
        c,
        "Refused",
        notice("error", `A form of another site (${origin}) cannot write here.`),
        signIn,
        403,
      );
    const form = await c.req.parseBody();
    if (!(await sameCsrf(signIn, form.csrf)))
      return page(
        c,
        "Refused",
        notice(
          "error",
          "This form was not sent by this dashboard page (its CSRF token is missing or wrong). Reload the page and try again.",
        ),
        signIn,
        403,
      );
  }
  c.set("operator", signIn);
  await next();
};

/**
 * The operator dashboard (contract "Operator dashboard"): server-rendered pages over the admin API
 * and the teams' audit logs, signed in with ADMIN_TOKEN into a session cookie. Every write is a form
 * post carrying the sign-in's CSRF token; a post whose Origin is another site is refused as well.
 */
export const dashboardRoutes = new Hono<AppEnv>()
  .route("/assets", assetRoutes)
  .get("/sign-in", (c) => (adminToken(c.env) ? page(c, "Sign in", signInForm()) : off(c)))
  .post("/sign-in", async (c) => {
    const token = adminToken(c.env);
    if (!token) return off(c);
    const form = await c.req.parseBody();
    const given = typeof form.token === "string" ? form.token : "";
    if (!given || given.length > 1_000 || !(await sameSecret(given, token)))
      return page(c, "Sign in", signInForm("That is not this gateway's ADMIN_TOKEN."), undefined, 401);
    await startSignIn(c, token);
    return c.redirect("/dashboard", 303);
  })
  .use("*", requireOperator)
  .post("/sign-out", async (c) => {
    await endSignIn(c, c.get("operator"));
    return c.redirect("/dashboard/sign-in", 303);
  })
  .route("/", overviewPages)
  .route("/teams", teamPages)
  .route("/audit", auditPages)
  .route("/approvals", approvalPages);

function off(c: Context<AppEnv>) {
  return page(
    c,
    "Dashboard off",
    notice("error", "The dashboard is off: set the ADMIN_TOKEN secret."),
    undefined,
    503,
  );
}

function signInForm(error?: string) {
  return html`${error ? notice("error", error) : ""}
<form method="post" action="/dashboard/sign-in" class="row">
<label>Admin token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button type="submit">Sign in</button>
</form>
<p class="muted">The gateway's ADMIN_TOKEN. The session lasts 8 hours; sign out ends it.</p>`;
}
