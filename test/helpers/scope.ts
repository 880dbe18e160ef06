import { env } from "cloudflare:test";
import type { ExecutionLedger } from "../../workers/gateway/bridge/ledger";
import { BridgeWork } from "../../workers/gateway/bridge/work";
import { loadConfig } from "../../workers/gateway/config";
import type { GatewayEnv } from "../../workers/gateway/env";
import type { RequestScope } from "../../workers/gateway/operations";
import { ExecutionSession } from "../../workers/gateway/sessions/execution";
import type { SandboxLimits } from "../../workers/sandbox/limits";

/** The bridge's work for one execution in `scope`, with the session that scope resolves to. */
export async function bridgeWork(scope: RequestScope, ledger: ExecutionLedger, egressHosts: string[] = []) {
  const session = await ExecutionSession.open(scope, undefined);
  return new BridgeWork(scope, ledger, { egressHosts, session });
}

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
    via: "rest",
    waitUntil: () => {},
  };
}
