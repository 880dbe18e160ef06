import { env } from "cloudflare:test";
import type { Engine } from "../../shared/contract/engine";
import { BridgeWork } from "../../workers/gateway/bridge/work";
import type { ExecutionLimits } from "../../workers/gateway/config";
import { loadConfig } from "../../workers/gateway/config";
import { buildContext } from "../../workers/gateway/context/build";
import type { GatewayEnv } from "../../workers/gateway/env";
import type { ExecutionLedger } from "../../workers/gateway/execution/ledger";
import type { RequestContext } from "../../workers/gateway/request/context";
import { ExecutionSession } from "../../workers/gateway/sessions/execution";

/** The bridge's work for one execution in `ctx`, with the session that context resolves to. */
export async function bridgeWork(ctx: RequestContext, ledger: ExecutionLedger, egress: string[] = []) {
  const session = await ExecutionSession.open(ctx, undefined);
  return new BridgeWork(ctx, ledger, { egress, session, deadline: Date.now() + 30_000 });
}

/**
 * A request context of team default (no stored record) over the real bindings, as the middleware
 * builds it; its code runs on `engine` (default: the deployment's, SANDBOX_ENGINE).
 */
export function testContext(
  limits: Partial<ExecutionLimits> = {},
  overrides: Partial<GatewayEnv> = {},
  engine?: Engine,
): RequestContext {
  const loaded = loadConfig(env as unknown as GatewayEnv);
  if (!loaded.ok) throw new Error(loaded.problems.join("; "));
  const { sandbox } = loaded.config;
  const config = {
    ...loaded.config,
    limits: { ...loaded.config.limits, ...limits },
    sandbox: { ...sandbox, engine: engine ?? sandbox.engine },
  };
  const caller = {
    config,
    team: "default",
    teamRecord: null,
    keyId: "dev",
    user: "dev",
    requestId: "req-test",
    origin: "http://localhost",
  };
  return buildContext({ ...(env as unknown as GatewayEnv), ...overrides }, caller, { via: "rest" }, () => {});
}
