import type { SandboxHostApi } from "../../../shared/contract/sandbox";
import type { PhaseTimer } from "../../sandbox/backends/backend";
import { inProcessHost } from "../../sandbox/run-sandbox";
import type { GatewayEnv } from "../env";

/**
 * Where isolates are made. With a `SANDBOX_HOST` service binding (what `npm run dev` sets up: a
 * second workerd process, restarted by the dev supervisor), code stuck in a native call cannot
 * stall the gateway. Without it, in this isolate: on Cloudflare `limits.cpuMs` bounds each isolate.
 */
export function sandboxHost(env: GatewayEnv, clock?: PhaseTimer): SandboxHostApi {
  const remote = (env as { SANDBOX_HOST?: SandboxHostApi }).SANDBOX_HOST;
  return remote ?? inProcessHost(env.LOADER, clock);
}
