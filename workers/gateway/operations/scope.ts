import type { Config } from "../config";
import type { GatewayEnv } from "../env";
import type { AdmittedSlot } from "../limits/limiter";
import type { PhaseClock } from "../timing/clock";

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
  /** the execution lease taken with the request's tokens, used by the first execution */
  slot?: AdmittedSlot;
  /** phase timings (PHASE_TIMING, operator requests only) */
  clock?: PhaseClock;
  waitUntil(promise: Promise<unknown>): void;
}
