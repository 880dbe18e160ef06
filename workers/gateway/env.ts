/** Bindings and vars from wrangler.toml (generated `Env`) plus the secrets, which are not in it. */
export type GatewayEnv = Omit<Env, "DEV_API_KEY"> & {
  /** When set, a valid API key of team `default` (local development and tests). */
  DEV_API_KEY?: string;
};

export interface AppVariables {
  requestId: string;
}

export type AppEnv = { Bindings: GatewayEnv; Variables: AppVariables };
