/** Bindings and vars from wrangler.toml (generated `Env`) plus the secrets, which are not in it. */
export type GatewayEnv = Omit<Env, "DEV_API_KEY" | "ADMIN_TOKEN"> & {
  /** When set, a valid API key of team `default` (local development and tests). */
  DEV_API_KEY?: string;
  /** When set, the bearer token of the admin API (/admin/*). */
  ADMIN_TOKEN?: string;
  /** The secret tokens of per-user connections are sealed under (docs/security.md "Connections"). */
  CONNECTIONS_KEY?: string;
  /** The key before the last rotation: what it sealed still opens, and is re-sealed under the new one. */
  CONNECTIONS_KEY_PREVIOUS?: string;
};

/** The ADMIN_TOKEN secret; unset or "" means none (the admin API and the dashboard are off). */
export function adminToken(env: GatewayEnv): string | undefined {
  return env.ADMIN_TOKEN || undefined;
}
