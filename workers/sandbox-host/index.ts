import { WorkerEntrypoint } from "cloudflare:workers";
import { type SandboxBridgeApi, type SandboxOutcome, SandboxRequest } from "../../shared/contract/sandbox";
import { runSandbox } from "../sandbox/host";

interface HostEnv {
  LOADER: WorkerLoader;
}

/**
 * The sandbox host as a Worker of its own. `npm run dev` runs it in a second workerd process that
 * the gateway reaches through its SANDBOX_HOST service binding, so code stuck in one native call
 * (a catastrophic regex, a memory bomb) stalls or kills this process, never the gateway; the dev
 * supervisor restarts it. It holds no secrets: only the Worker Loader.
 */
export class SandboxHost extends WorkerEntrypoint<HostEnv> {
  async run(request: unknown, bridge: SandboxBridgeApi | undefined): Promise<SandboxOutcome> {
    const parsed = SandboxRequest.safeParse(request);
    if (!parsed.success) {
      return {
        logs: [],
        truncated: false,
        error: { name: "SandboxError", message: "malformed sandbox request" },
      };
    }
    return runSandbox(this.env.LOADER, parsed.data, bridge);
  }

  ping(): string {
    return "ok";
  }
}

export default {
  fetch: () => new Response("sandbox host: ok"),
} satisfies ExportedHandler<HostEnv>;
