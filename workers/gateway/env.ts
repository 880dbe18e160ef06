import type { RequestContext } from "./context/request-context";
import type { OperatorSession } from "./dashboard/session";
import type { PhaseClock } from "./timing/clock";

/** Bindings and vars from wrangler.toml (generated `Env`) plus the secrets, which are not in it. */
export type GatewayEnv = Omit<Env, "DEV_API_KEY" | "ADMIN_TOKEN"> & {
  /** When set, a valid API key of team `default` (local development and tests). */
  DEV_API_KEY?: string;
  /** When set, the bearer token of the admin API (/admin/*). */
  ADMIN_TOKEN?: string;
};

/** What middleware sets on Hono's context: finished values only. */
export interface AppVariables {
  requestId: string;
  /** phase timings of this request (PHASE_TIMING, operator requests only) */
  clock?: PhaseClock;
  /** /mcp and /v1/* only: the authenticated, admitted request (context/middleware.ts) */
  context: RequestContext;
  /** /dashboard pages past sign-in: the operator's session and the ADMIN_TOKEN it was signed in with */
  operator: { session: OperatorSession; token: string };
}

export type AppEnv = { Bindings: GatewayEnv; Variables: AppVariables };
