import type { Config } from "../config";
import type { GatewayEnv } from "../env";

/** Who is asking and with what: everything an operation needs, the same for MCP and REST. */
export interface RequestScope {
  env: GatewayEnv;
  config: Config;
  requestId: string;
  /** whose upstreams, caches and sessions these are ("default" until teams exist) */
  team: string;
  waitUntil(promise: Promise<unknown>): void;
}
