import { Hono, type MiddlewareHandler } from "hono";
import { sameSecret } from "../context/api-key";
import { adminToken } from "../env";
import type { AppEnv } from "../http/app-env";
import { readJson } from "../http/body";
import { HttpError } from "../http/errors";
import {
  createKey,
  decideApproval,
  deleteTeam,
  endUserConnection,
  getTeam,
  listApprovals,
  listKeys,
  listTeamConnections,
  listTeams,
  revokeKey,
  saveTeam,
} from "./admin-service";

/** `Authorization: Bearer <ADMIN_TOKEN>`; without an ADMIN_TOKEN the admin API is off. */
const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = adminToken(c.env);
  if (!token) throw new HttpError(503, "admin_disabled", "The admin API is off: set the ADMIN_TOKEN secret");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("Authorization") ?? "");
  if (!match?.[1] || !(await sameSecret(match[1], token))) {
    throw new HttpError(401, "unauthorized", "Admin routes need Authorization: Bearer <ADMIN_TOKEN>", {
      "WWW-Authenticate": 'Bearer realm="admin"',
    });
  }
  await next();
};

/** Operators' API: teams (config, allow/deny, limits), their API keys, users' upstream connections, and pending approvals (admin-service.ts). */
export const adminRoutes = new Hono<AppEnv>()
  .use("*", requireAdmin)
  .get("/teams", async (c) => c.json(await listTeams(c.env, c.req.query())))
  .put("/teams/:team", async (c) => {
    const { team, created } = await saveTeam(c.env, c.req.param("team"), await readJson(c), (p) =>
      c.executionCtx.waitUntil(p),
    );
    return c.json(team, created ? 201 : 200);
  })
  .get("/teams/:team", async (c) => c.json(await getTeam(c.env, c.req.param("team"))))
  .delete("/teams/:team", async (c) => {
    await deleteTeam(c.env, c.req.param("team"));
    return c.body(null, 204);
  })
  .post("/teams/:team/keys", async (c) =>
    c.json(await createKey(c.env, c.req.param("team"), await readJson(c)), 201),
  )
  .get("/teams/:team/keys", async (c) => c.json({ keys: await listKeys(c.env, c.req.param("team")) }))
  .get("/teams/:team/connections", async (c) =>
    c.json({ connections: await listTeamConnections(c.env, c.req.param("team")) }),
  )
  .delete("/teams/:team/connections/:user/:server", async (c) => {
    const { team, user, server } = c.req.param();
    return c.json(await endUserConnection(c.env, team, user, server));
  })
  .get("/approvals", async (c) => c.json(await listApprovals(c.env, c.req.query())))
  .post("/approvals/:id", async (c) =>
    c.json(await decideApproval(c.env, c.req.param("id"), await readJson(c))),
  )
  .delete("/keys/:id", async (c) => {
    await revokeKey(c.env, c.req.param("id"));
    return c.body(null, 204);
  });
