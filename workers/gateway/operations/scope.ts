import type { Config } from "../config";
import type { GatewayEnv } from "../env";

/** Who is asking and with what: everything an operation needs, the same for MCP and REST. */
export interface RequestScope {
  env: GatewayEnv;
  config: Config;
  requestId: string;
  /** whose upstreams, caches, sessions and audit log these are */
  team: string;
  /** the API key's id (`dev` for DEV_API_KEY) */
  keyId: string;
  /** the MCP session, when the request belongs to one */
  sessionId?: string;
  waitUntil(promise: Promise<unknown>): void;
}
