import type { OAuthServer } from "../connections/provider";
import { oauthServer } from "../connections/store";
import type { GatewayEnv } from "../env";
import { loadTeam, teamServers } from "../teams/resolve";
import { parseMcpServers, type UpstreamServer, USER_SECRET_REF } from "../upstreams/config";

/**
 * The team's configured servers whose calls depend on who makes them: per-user OAuth (`auth`) or
 * `${user:NAME}` headers. Read as the catalog reads them (the team's `servers`, or for team
 * default the deployment's MCP_SERVERS); a server left out for a config problem is not among them.
 */
export async function perUserServers(env: GatewayEnv, team: string): Promise<UpstreamServer[]> {
  const source = teamServers(env, team, await loadTeam(env, team));
  const { servers } = await parseMcpServers(source, env as unknown as Record<string, unknown>);
  return servers.filter((s) => s.auth !== undefined || s.userHeaders !== undefined);
}

/** The team's servers with `auth`, as connections/ reaches them (for revocation). */
export async function oauthServersOf(env: GatewayEnv, team: string): Promise<OAuthServer[]> {
  return (await perUserServers(env, team)).flatMap((s) =>
    s.auth ? [oauthServer({ ...s, auth: s.auth })] : [],
  );
}

/** The names of the user's own secrets a server's headers take (`${user:NAME}`), in order, once each. */
export function secretNames(server: UpstreamServer): string[] {
  const names = Object.values(server.userHeaders ?? {}).flatMap((template) =>
    [...template.matchAll(USER_SECRET_REF)].map((m) => m[1] as string),
  );
  return [...new Set(names)];
}
