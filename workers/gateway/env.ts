import type { Config } from "./config";
import type { AdmittedSlot } from "./limits/limiter";
import type { PhaseClock } from "./timing/clock";

/** Bindings and vars from wrangler.toml (generated `Env`) plus the secrets, which are not in it. */
export type GatewayEnv = Omit<Env, "DEV_API_KEY" | "ADMIN_TOKEN"> & {
  /** When set, a valid API key of team `default` (local development and tests). */
  DEV_API_KEY?: string;
  /** When set, the bearer token of the admin API (/admin/*). */
  ADMIN_TOKEN?: string;
};

export interface AppVariables {
  requestId: string;
  /** the authenticated key's team and id (`dev` for DEV_API_KEY) */
  team: string;
  keyId: string;
  /** the POST /mcp body, read once by the rate limiter (its message count is the cost) for the route */
  mcpBody?: Promise<unknown>;
  /** the deployment's config with the key's team's limits, made once per request (http/scope.ts) */
  teamConfig?: Config;
  /** the execution lease taken with this request's tokens (a lone `execute` request) */
  slot?: AdmittedSlot;
  /** phase timings of this request (PHASE_TIMING, operator requests only) */
  clock?: PhaseClock;
}

export type AppEnv = { Bindings: GatewayEnv; Variables: AppVariables };
