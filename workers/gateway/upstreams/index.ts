import type { Config } from "../config";
import type { GatewayEnv } from "../env";
import { type Catalog, loadCatalog } from "./catalog";
import { parseMcpServers, type UpstreamConfig } from "./config";

export type { Catalog, ServerState } from "./catalog";
export type { UpstreamServer } from "./config";

const parsed = new WeakMap<object, Promise<UpstreamConfig>>();

/** `MCP_SERVERS` of this deployment, parsed once per env object. */
export function deploymentUpstreams(env: GatewayEnv): Promise<UpstreamConfig> {
  let hit = parsed.get(env);
  if (!hit) {
    hit = parseMcpServers(env.MCP_SERVERS, env as unknown as Record<string, unknown>);
    parsed.set(env, hit);
  }
  return hit;
}

/** What one request may reach upstream: the servers, their config problems, and the tool catalog. */
export interface Upstreams extends UpstreamConfig {
  catalog(): Promise<Catalog>;
}

export async function upstreamsFor(
  env: GatewayEnv,
  config: Config,
  waitUntil: (p: Promise<unknown>) => void,
): Promise<Upstreams> {
  const { servers, problems } = await deploymentUpstreams(env);
  let catalog: Promise<Catalog> | undefined;
  return {
    servers,
    problems,
    catalog: () => {
      catalog ??= loadCatalog({
        kv: env.SCHEMA_CACHE,
        scope: "default",
        servers,
        ttlSeconds: config.upstreams.cacheTtlSeconds,
        timeoutMs: config.upstreams.timeoutMs,
        waitUntil,
      }).then((loaded) => (problems.length ? { ...loaded, problems } : loaded));
      return catalog;
    },
  };
}
