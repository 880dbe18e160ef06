import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { sameSecret } from "../http/auth";
import { parseBody, readJson } from "../http/body";
import { HttpError } from "../http/errors";
import { KeyInput, TEAM_NAME, TeamInput } from "../teams/schema";
import { TeamStore } from "../teams/store";
import { parseMcpServers } from "../upstreams/config";

/** `Authorization: Bearer <ADMIN_TOKEN>`; without an ADMIN_TOKEN the admin API is off. */
const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = c.env.ADMIN_TOKEN;
  if (!token) throw new HttpError(503, "admin_disabled", "The admin API is off: set the ADMIN_TOKEN secret");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("Authorization") ?? "");
  if (!match?.[1] || !(await sameSecret(match[1], token))) {
    throw new HttpError(401, "unauthorized", "Admin routes need Authorization: Bearer <ADMIN_TOKEN>", {
      "WWW-Authenticate": 'Bearer realm="admin"',
    });
  }
  await next();
};

function teamName(raw: string): string {
  if (!TEAM_NAME.test(raw))
    throw new HttpError(400, "invalid_team", `Team names must match ${TEAM_NAME.source} (got "${raw}")`);
  return raw;
}

const store = (env: AppEnv["Bindings"]) => new TeamStore(env.TEAMS);

/** Operators' API: teams (config, allow/deny, limits) and their API keys. */
export const adminRoutes = new Hono<AppEnv>()
  .use("*", requireAdmin)
  .put("/teams/:team", async (c) => {
    const team = teamName(c.req.param("team"));
    const input = parseBody(TeamInput, await readJson(c));
    if (input.servers) {
      const { problems } = await parseMcpServers(input.servers, c.env as unknown as Record<string, unknown>);
      if (problems.length)
        throw new HttpError(
          400,
          "invalid_request",
          `Invalid servers: ${problems.join("; ").replaceAll("MCP_SERVERS.", "servers.")}`,
        );
    }
    const { team: record, created } = await store(c.env).putTeam(team, input);
    return c.json(record, created ? 201 : 200);
  })
  .get("/teams/:team", async (c) => {
    const record = await store(c.env).getTeam(teamName(c.req.param("team")));
    if (!record) throw new HttpError(404, "not_found", `No team "${c.req.param("team")}"`);
    return c.json(record);
  })
  .delete("/teams/:team", async (c) => {
    if (!(await store(c.env).deleteTeam(teamName(c.req.param("team"))))) {
      throw new HttpError(404, "not_found", `No team "${c.req.param("team")}"`);
    }
    return c.body(null, 204);
  })
  .post("/teams/:team/keys", async (c) => {
    const team = teamName(c.req.param("team"));
    const { name } = parseBody(KeyInput, await readJson(c));
    if (!(await store(c.env).getTeam(team)))
      throw new HttpError(404, "not_found", `No team "${team}": create it first`);
    const { record, key } = await store(c.env).createKey(team, name);
    return c.json(
      { id: record.id, key, name: record.name, prefix: record.prefix, team, createdAt: record.createdAt },
      201,
    );
  })
  .get("/teams/:team/keys", async (c) => {
    const teams = store(c.env);
    const keys = await teams.listKeys(teamName(c.req.param("team")));
    const used = await teams.lastUsed(keys.map((k) => k.id));
    return c.json({
      keys: keys.map(({ id, name, prefix, createdAt }) => ({
        id,
        name,
        prefix,
        createdAt,
        ...(used[id] ? { lastUsedAt: used[id] } : {}),
      })),
    });
  })
  .delete("/keys/:id", async (c) => {
    if (!(await store(c.env).revokeKey(c.req.param("id"))))
      throw new HttpError(404, "not_found", `No key "${c.req.param("id")}"`);
    return c.body(null, 204);
  });
