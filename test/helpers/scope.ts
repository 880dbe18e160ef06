import { env } from "cloudflare:test";
import { loadConfig } from "../../workers/gateway/config";
import type { GatewayEnv } from "../../workers/gateway/env";
import type { RequestScope } from "../../workers/gateway/operations";
import type { SandboxLimits } from "../../workers/sandbox/limits";

/** A request scope of team default over the real bindings, as the routes build it. */
export function testScope(
  limits: Partial<SandboxLimits> = {},
  overrides: Partial<GatewayEnv> = {},
): RequestScope {
  const loaded = loadConfig(env as unknown as GatewayEnv);
  if (!loaded.ok) throw new Error(loaded.problems.join("; "));
  return {
    env: { ...(env as unknown as GatewayEnv), ...overrides },
    config: { ...loaded.config, limits: { ...loaded.config.limits, ...limits } },
    requestId: "req-test",
    team: "default",
    keyId: "dev",
    waitUntil: () => {},
  };
}
