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
  /** which door the request came in by: MCP callers without a session get one made on first use */
  via: "mcp" | "rest";
  /** the (2025-era) MCP session the request belongs to, checked live and of this team */
  mcpSessionId?: string;
  waitUntil(promise: Promise<unknown>): void;
}
