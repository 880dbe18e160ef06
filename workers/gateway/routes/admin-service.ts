import { z } from "zod";
import { type ApprovalView, REMEMBER } from "../../../durable-objects/approvals/approval";
import type { ConnectionView } from "../../../shared/contract/connections";
import { SERVER_NAME } from "../../../shared/contract/tools";
import { approvalDesk } from "../approvals/desk";
import { loadConfig } from "../config";
import { endConnection, forgetUsers, listConnections } from "../connections/disconnect";
import { forgetKeys } from "../context/api-key";
import type { GatewayEnv } from "../env";
import { parseBody } from "../http/body";
import { HttpError } from "../http/errors";
import { revokeGrantsOfKey } from "../oauth";
import { withTeamLimits } from "../teams/resolve";
import { DEFAULT_TEAM, KeyInput, keyIdentity, TEAM_NAME, TeamInput, type TeamRecord } from "../teams/schema";
import { TeamStore } from "../teams/store";
import { parseMcpServers } from "../upstreams/config";
import { globWarnings } from "../upstreams/glob-check";
import { oauthServersOf } from "./per-user-servers";

// What the admin API does, as functions: `routes/admin.ts` answers HTTP with them and the dashboard
// (dashboard/admin-call.ts) calls them directly. Input arrives as it came (unknown) and is checked
// here, so both get the same validation and messages; a refusal is an HttpError.

/** A page of team names (`GET /admin/teams`). */
export interface TeamPage {
  teams: { name: string }[];
  cursor?: string;
}

/** A stored team record, and what the operator should look at again (`PUT /admin/teams/{team}`). */
export type SavedTeam = TeamRecord & { warnings?: string[] };

/** A new key: its secret is in this answer only. */
export interface NewKey {
  id: string;
  key: string;
  name: string;
  /** who the key acts as: its `user`, else its id */
  user: string;
  prefix: string;
  team: string;
  createdAt: number;
}

/** A key as listed: never its secret. */
export interface KeyRow {
  id: string;
  name: string;
  user: string;
  prefix: string;
  createdAt: number;
  lastUsedAt?: number;
}

export interface ApprovalList {
  pending: (ApprovalView & { waitingMs: number })[];
  decided: ApprovalView[];
}

/** An operator's decision, as the desk stored it. */
export type OperatorDecided = { id: string } & NonNullable<ApprovalView["decision"]>;

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

function teamName(raw: string): string {
  if (!TEAM_NAME.test(raw))
    throw new HttpError(400, "invalid_team", `Team names must match ${TEAM_NAME.source} (got "${raw}")`);
  return raw;
}

const store = (env: GatewayEnv) => new TeamStore(env.TEAMS);

/** Team default is the deployment's own (DEV_API_KEY, MCP_SERVERS) until a record of that name is stored. */
const noTeam = (team: string) =>
  new HttpError(
    404,
    "not_found",
    team === DEFAULT_TEAM
      ? `No stored team "${DEFAULT_TEAM}": team ${DEFAULT_TEAM} is the configuration's (requests with DEV_API_KEY, on the upstreams of MCP_SERVERS)`
      : `No team "${team}"`,
  );

export async function listTeams(env: GatewayEnv, query: unknown): Promise<TeamPage> {
  const page = await store(env).listTeams(parseBody(TeamListQuery, query));
  return { teams: page.names.map((name) => ({ name })), ...(page.cursor && { cursor: page.cursor }) };
}

/** Creates or replaces a team's record; warns of allow/deny globs that match no tool (upstreams/glob-check.ts). */
export async function saveTeam(
  env: GatewayEnv,
  rawTeam: string,
  body: unknown,
  waitUntil: (promise: Promise<unknown>) => void,
): Promise<{ team: SavedTeam; created: boolean }> {
  const team = teamName(rawTeam);
  const input = parseBody(TeamInput, body);
  if (input.servers) {
    const { problems } = await parseMcpServers(input.servers, env as unknown as Record<string, unknown>);
    if (problems.length)
      throw new HttpError(
        400,
        "invalid_request",
        `Invalid servers: ${problems.join("; ").replaceAll("MCP_SERVERS.", "servers.")}`,
      );
  }
  const { team: record, created } = await store(env).putTeam(team, input);
  const warnings = await savedTeamWarnings(env, team, record, waitUntil);
  return { team: { ...record, ...(warnings.length ? { warnings } : {}) }, created };
}

async function savedTeamWarnings(
  env: GatewayEnv,
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

export async function getTeam(env: GatewayEnv, rawTeam: string): Promise<TeamRecord> {
  const team = teamName(rawTeam);
  const record = await store(env).getTeam(team);
  if (!record) throw noTeam(team);
  return record;
}

/** Deletes the team and its keys, then the keys' OAuth grants and every user's upstream connections. */
export async function deleteTeam(env: GatewayEnv, rawTeam: string): Promise<void> {
  const team = teamName(rawTeam);
  const keys = await store(env).listKeys(team);
  const servers = env.CONNECTIONS ? await oauthServersOf(env, team) : [];
  const deleted = await store(env).deleteTeam(team);
  forgetKeys();
  // The keys are gone (their OAuth tokens are refused from now on); then their grants go too.
  for (const key of keys) await revokeGrantsOfKey(env, key.id);
  if (env.CONNECTIONS) {
    const connected = (await listConnections(env, team)).map((c) => c.user);
    await forgetUsers(env, team, [...keys.map((k) => keyIdentity(k).user), ...connected], servers);
  }
  if (!deleted) throw new HttpError(404, "not_found", `No team "${team}"`);
}

export async function createKey(env: GatewayEnv, rawTeam: string, body: unknown): Promise<NewKey> {
  const team = teamName(rawTeam);
  const { name, user } = parseBody(KeyInput, body);
  if (!(await store(env).getTeam(team)))
    throw new HttpError(404, "not_found", `No team "${team}": create it first`);
  const { record, key } = await store(env).createKey(team, name, user);
  const { id, prefix, createdAt } = record;
  return { id, key, name, user: keyIdentity(record).user, prefix, team, createdAt };
}

export async function listKeys(env: GatewayEnv, rawTeam: string): Promise<KeyRow[]> {
  const teams = store(env);
  const keys = await teams.listKeys(teamName(rawTeam));
  const used = await teams.lastUsed(keys.map((k) => k.id));
  return keys.map((record) => ({
    id: record.id,
    name: record.name,
    user: keyIdentity(record).user,
    prefix: record.prefix,
    createdAt: record.createdAt,
    ...(used[record.id] ? { lastUsedAt: used[record.id] } : {}),
  }));
}

/**
 * Deletes the key, then its OAuth grants; a key without `user` is a user of its own (nobody else
 * acts as it), so its upstream connections and secrets end with it.
 */
export async function revokeKey(env: GatewayEnv, id: string): Promise<void> {
  const own = /^key_[0-9a-f]{16}$/.test(id) ? await store(env).getKeyById(id) : null;
  if (!(await store(env).revokeKey(id))) throw new HttpError(404, "not_found", `No key "${id}"`);
  forgetKeys();
  // The key is gone (its OAuth tokens are refused from now on); then its grants go too.
  if (/^key_[0-9a-f]{16}$/.test(id)) await revokeGrantsOfKey(env, id);
  if (own && own.user === undefined && env.CONNECTIONS)
    await forgetUsers(env, own.team, [own.id], await oauthServersOf(env, own.team));
}

/** Every user's connections in a team (`GET /admin/teams/{team}/connections`): never a token. */
export async function listTeamConnections(env: GatewayEnv, rawTeam: string): Promise<ConnectionView[]> {
  const team = teamName(rawTeam);
  if (!env.CONNECTIONS)
    throw new HttpError(
      503,
      "connections_unavailable",
      "Per-user connections are not configured (no CONNECTIONS binding)",
    );
  return listConnections(env, team);
}

/** Ends a user's connection (`DELETE /admin/teams/{team}/connections/{user}/{server}`): revoked upstream where it can be. */
export async function endUserConnection(
  env: GatewayEnv,
  rawTeam: string,
  user: string,
  server: string,
): Promise<{ user: string; server: string; revoked: boolean }> {
  const team = teamName(rawTeam);
  const valid = SERVER_NAME.test(server) && user !== "" && user.length <= 200;
  const ended =
    valid && env.CONNECTIONS
      ? await endConnection({ env, team, user }, server, await oauthServersOf(env, team))
      : null;
  if (!ended)
    throw new HttpError(
      404,
      "not_found",
      `No connection of ${user.slice(0, 200)} to ${server.slice(0, 70)} in team ${team} (GET /admin/teams/${team}/connections lists them)`,
    );
  return { user, server, revoked: ended.revoked };
}

export async function listApprovals(env: GatewayEnv, query: unknown): Promise<ApprovalList> {
  const { team, limit } = parseBody(ApprovalListQuery, query);
  const approvals = await approvalDesk(env).list({ team, limit });
  const now = Date.now();
  return {
    pending: approvals.filter((a) => !a.decision).map((a) => ({ ...a, waitingMs: now - a.createdAt })),
    decided: approvals.filter((a) => a.decision),
  };
}

/** An operator's decision; the first decision stands (409 when someone else's came first). */
export async function decideApproval(env: GatewayEnv, id: string, body: unknown): Promise<OperatorDecided> {
  const { approve, remember = "call" } = parseBody(OperatorDecision, body);
  const desk = approvalDesk(env);
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
  return { id, ...decision };
}
