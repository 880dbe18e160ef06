import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { REMEMBER } from "../../../durable-objects/approvals/approval";
import { approvalDesk } from "../approvals/desk";
import { loadConfig } from "../config";
import { sameSecret } from "../context/api-key";
import type { AppEnv } from "../http/app-env";
import { parseBody, readJson } from "../http/body";
import { HttpError } from "../http/errors";
import { revokeGrantsOfKey } from "../oauth";
import { withTeamLimits } from "../teams/resolve";
import { DEFAULT_TEAM, KeyInput, TEAM_NAME, TeamInput, type TeamRecord } from "../teams/schema";
import { TeamStore } from "../teams/store";
import { parseMcpServers } from "../upstreams/config";
import { globWarnings } from "../upstreams/glob-check";

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

/** `GET /admin/teams` query: a page of at most 1,000 names (one KV list call), resumed by `cursor`. */
const TeamListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: z.string().min(1).max(1000).optional(),
  })
  .strict();

const ApprovalListQuery = z
  .object({
    team: z.string().regex(TEAM_NAME).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();
const OperatorDecision = z.object({ approve: z.boolean(), remember: z.enum(REMEMBER).optional() }).strict();

/** Team default is the deployment's own (DEV_API_KEY, MCP_SERVERS) until a record of that name is stored. */
const noTeam = (team: string) =>
  new HttpError(
    404,
    "not_found",
    team === DEFAULT_TEAM
      ? `No stored team "${DEFAULT_TEAM}": team ${DEFAULT_TEAM} is the configuration's (requests with DEV_API_KEY, on the upstreams of MCP_SERVERS)`
      : `No team "${team}"`,
  );

/** What the saved team's record should make an operator look at again (its globs; upstreams/glob-check.ts). */
async function savedTeamWarnings(
  env: AppEnv["Bindings"],
  team: string,
  teamRecord: TeamRecord,
  waitUntil: (promise: Promise<unknown>) => void,
): Promise<string[]> {
  if (!teamRecord.allow?.length && !teamRecord.deny?.length) return [];
  const loaded = loadConfig(env);
  if (!loaded.ok) return ["allow/deny globs were not checked: the gateway is misconfigured (see /ready)"];
  const config = withTeamLimits(loaded.config, teamRecord);
  return globWarnings({ env, config, team, teamRecord, waitUntil });
}

/** Operators' API: teams (config, allow/deny, limits), their API keys, and pending approvals. */
export const adminRoutes = new Hono<AppEnv>()
  .use("*", requireAdmin)
  .get("/teams", async (c) => {
    const query = parseBody(TeamListQuery, c.req.query());
    const page = await store(c.env).listTeams(query);
    return c.json({
      teams: page.names.map((name) => ({ name })),
      ...(page.cursor && { cursor: page.cursor }),
    });
  })
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
    const warnings = await savedTeamWarnings(c.env, team, record, (p) => c.executionCtx.waitUntil(p));
    return c.json({ ...record, ...(warnings.length ? { warnings } : {}) }, created ? 201 : 200);
  })
  .get("/teams/:team", async (c) => {
    const team = teamName(c.req.param("team"));
    const record = await store(c.env).getTeam(team);
    if (!record) throw noTeam(team);
    return c.json(record);
  })
  .delete("/teams/:team", async (c) => {
    const team = teamName(c.req.param("team"));
    const keys = await store(c.env).listKeys(team);
    const deleted = await store(c.env).deleteTeam(team);
    // The keys are gone (their OAuth tokens are refused from now on); then their grants go too.
    for (const key of keys) await revokeGrantsOfKey(c.env, key.id);
    if (!deleted) throw new HttpError(404, "not_found", `No team "${c.req.param("team")}"`);
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
  .get("/approvals", async (c) => {
    const { team, limit } = parseBody(ApprovalListQuery, c.req.query());
    const approvals = await approvalDesk(c.env).list({ team, limit });
    const now = Date.now();
    return c.json({
      pending: approvals.filter((a) => !a.decision).map((a) => ({ ...a, waitingMs: now - a.createdAt })),
      decided: approvals.filter((a) => a.decision),
    });
  })
  .post("/approvals/:id", async (c) => {
    const id = c.req.param("id");
    const { approve, remember = "call" } = parseBody(OperatorDecision, await readJson(c));
    const desk = approvalDesk(c.env);
    const found = /^apr_[0-9a-f]{24}$/.test(id) ? await desk.get(id) : null;
    if (!found) {
      throw new HttpError(
        404,
        "not_found",
        `No approval "${id.slice(0, 40)}" (GET /admin/approvals lists them)`,
      );
    }
    // The first decision stands; one made meanwhile by someone else comes back from decide().
    const decision = found.decision ?? (await desk.decide(id, { approve, by: "operator", remember }));
    const mine =
      decision?.by === "operator" &&
      decision.status === (approve ? "approved" : "denied") &&
      decision.remember === remember;
    if (!decision || found.decision || !mine) {
      const earlier = decision ?? found.decision;
      throw new HttpError(
        409,
        "already_decided",
        `Approval ${id} was already decided: ${earlier ? `${earlier.status} by ${earlier.by}` : "gone"}`,
      );
    }
    return c.json({ id, ...decision });
  })
  .delete("/keys/:id", async (c) => {
    const id = c.req.param("id");
    if (!(await store(c.env).revokeKey(id))) throw new HttpError(404, "not_found", `No key "${id}"`);
    // The key is gone (its OAuth tokens are refused from now on); then its grants go too.
    if (/^key_[0-9a-f]{16}$/.test(id)) await revokeGrantsOfKey(c.env, id);
    return c.body(null, 204);
  });
