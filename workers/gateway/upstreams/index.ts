import { sha256 } from "../../../shared/hash";
import type { Config } from "../config";
import type { GatewayEnv } from "../env";
import type { RequestContext } from "../request/context";
import { curateTools } from "../teams/curation";
import { applyPolicy, policyRefusal } from "../teams/policy";
import { loadTeam, teamServers, withTeamLimits } from "../teams/resolve";
import { type Catalog, loadCatalog, type ServerState } from "./catalog";
import { parseMcpServers, type UpstreamConfig } from "./config";

export type { Catalog, ServerState } from "./catalog";
export type { UpstreamServer } from "./config";

/** Per-isolate state: MCP_SERVERS parsed per env object; a team's `servers` parsed until they change. */
const parsed = new WeakMap<object, Promise<UpstreamConfig>>();
const parsedTeams = new Map<string, { source: unknown; config: Promise<UpstreamConfig> }>();

/** `MCP_SERVERS` of this deployment, parsed once per env object. */
export function deploymentUpstreams(env: GatewayEnv): Promise<UpstreamConfig> {
  let hit = parsed.get(env);
  if (!hit) {
    hit = parseMcpServers(env.MCP_SERVERS, env as unknown as Record<string, unknown>);
    parsed.set(env, hit);
  }
  return hit;
}

function serversOf(env: GatewayEnv, team: string, source: unknown): Promise<UpstreamConfig> {
  if (source === env.MCP_SERVERS) return deploymentUpstreams(env);
  const hit = parsedTeams.get(team);
  if (hit && hit.source === source) return hit.config;
  const config = parseMcpServers(source, env as unknown as Record<string, unknown>);
  parsedTeams.set(team, { source, config });
  return config;
}

/** What one request may reach upstream: the team's servers, their config problems, and the tool catalog. */
export interface Upstreams extends UpstreamConfig {
  catalog(): Promise<Catalog>;
}

/** What the upstreams of a request depend on. */
export type UpstreamsContext = Pick<RequestContext, "env" | "config" | "team" | "teamRecord" | "waitUntil"> &
  Partial<Pick<RequestContext, "user" | "origin" | "trace">>;

/**
 * The team's upstreams. Its schema cache entries are its own (partitioned by team), and tools its
 * allow/deny lists exclude are removed from the catalog's `tools`, so every path (MCP, REST, code)
 * neither lists nor calls them; their names and the refusing rule stay in `notAllowed`, for the
 * error that says so.
 */
export async function upstreamsFor(ctx: UpstreamsContext): Promise<Upstreams> {
  const { env, config, team, teamRecord, waitUntil, user, origin } = ctx;
  const caller = user !== undefined && origin !== undefined ? { env, team, user, origin } : undefined;
  const { servers, problems } = await serversOf(env, team, teamServers(env, team, teamRecord));
  const refusal = policyRefusal(teamRecord?.allow, teamRecord?.deny);
  let catalog: Promise<Catalog> | undefined;
  return {
    servers,
    problems,
    catalog: () => {
      catalog ??= loadCatalog({
        kv: env.SCHEMA_CACHE,
        team,
        servers,
        caller,
        ttlSeconds: config.upstreams.cacheTtlSeconds,
        timeoutMs: config.upstreams.timeoutMs,
        waitUntil,
        span: ctx.trace?.root,
      }).then(async (loaded) => {
        // renamed first: allow/deny globs and everything after see the names the team gave
        const curated = curateTools(loaded.tools, teamRecord?.tools);
        const { visible, notAllowed } = applyPolicy(curated.tools, refusal);
        const all = [...problems, ...curated.problems];
        const rules = [teamRecord?.tools, teamRecord?.allow, teamRecord?.deny];
        const ruled = rules.some((rule) => rule !== undefined) ? await sha256(JSON.stringify(rules)) : "";
        return {
          ...loaded,
          tools: visible,
          ...(loaded.version ? { version: `${loaded.version} team:${ruled}` } : {}),
          ...(notAllowed.length ? { notAllowed } : {}),
          ...(all.length ? { problems: all } : {}),
        };
      });
      return catalog;
    },
  };
}

/** A team's upstreams and their state (team default: the deployment's own), as /ready and the dashboard show them. */
export async function serverStates(
  env: GatewayEnv,
  config: Config,
  team: string,
  waitUntil: (p: Promise<unknown>) => void,
): Promise<ServerState[]> {
  const teamRecord = await loadTeam(env, team);
  const upstreams = await upstreamsFor({
    env,
    config: withTeamLimits(config, teamRecord),
    team,
    teamRecord,
    waitUntil,
  });
  return (await upstreams.catalog()).servers;
}
