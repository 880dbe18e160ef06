import { Hono } from "hono";
import { requestContext } from "./context/middleware";
import { dashboardRoutes } from "./dashboard";
import type { AppEnv } from "./http/app-env";
import { HttpError, toErrorResponse } from "./http/errors";
import { corsPolicy, originGuard } from "./http/origin";
import { phaseTiming } from "./http/phase-timing";
import { requestLog } from "./http/request-log";
import { requestTrace } from "./http/request-trace";
import { oauthRoutes } from "./oauth";
import { adminRoutes } from "./routes/admin";
import { approvePageRoutes } from "./routes/approve-page";
import { auditRoutes } from "./routes/audit";
import { connectRoutes } from "./routes/connect";
import { connectionRoutes, userSecretRoutes } from "./routes/connections";
import { executeRoutes } from "./routes/execute";
import { healthRoutes } from "./routes/health";
import { mcpRoutes } from "./routes/mcp";
import { sessionRoutes } from "./routes/sessions";
import { skillRoutes } from "./routes/skills";
import { toolRoutes } from "./routes/tools";

/** The gateway's HTTP surface; each concept lives in its own folder, this file only composes. */
export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", phaseTiming);
  app.use("*", requestLog);
  app.use("*", requestTrace);
  app.use("*", originGuard);
  app.use("*", corsPolicy);
  app.use("/mcp", requestContext);
  app.use("/v1/*", requestContext);

  app.route("/", healthRoutes);
  app.route("/mcp", mcpRoutes);
  app.route("/v1/execute", executeRoutes);
  app.route("/v1/sessions", sessionRoutes);
  app.route("/v1/tools", toolRoutes);
  app.route("/v1/audit", auditRoutes);
  app.route("/v1/skills", skillRoutes);
  app.route("/v1/connections", connectionRoutes);
  app.route("/v1/secrets", userSecretRoutes);
  app.route("/admin", adminRoutes);
  app.route("/approve", approvePageRoutes);
  app.route("/dashboard", dashboardRoutes);
  app.route("/", oauthRoutes);
  app.route("/", connectRoutes);

  app.notFound((c) =>
    toErrorResponse(new HttpError(404, "not_found", `No route for ${c.req.method} ${c.req.path}`), c),
  );
  app.onError((err, c) => toErrorResponse(err, c));
  return app;
}
