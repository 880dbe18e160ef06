import { WorkerEntrypoint } from "cloudflare:workers";
import {
  failedOutcome,
  type SandboxBridgeApi,
  type SandboxHostApi,
  type SandboxOutcome,
  SandboxRequest,
  sandboxError,
} from "../../shared/contract/sandbox";
import { pythonSnapshot } from "../sandbox/python/python-isolate";
import { runSandbox } from "../sandbox/run-sandbox";

interface HostEnv {
  LOADER: WorkerLoader;
}

/**
 * The sandbox host as a Worker of its own. `npm run dev` runs it in a second workerd process that
 * the gateway reaches through its SANDBOX_HOST service binding, so code stuck in one native call
 * (a catastrophic regex, a memory bomb) stalls or kills this process, never the gateway; the dev
 * supervisor restarts it. It holds no secrets: only the Worker Loader.
 */
export class SandboxHost extends WorkerEntrypoint<HostEnv> implements SandboxHostApi {
  async runSandbox(request: unknown, bridge: SandboxBridgeApi | undefined): Promise<SandboxOutcome> {
    const parsed = SandboxRequest.safeParse(request);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return failedOutcome(
        sandboxError(`malformed sandbox request (${issue?.path.join(".")}: ${issue?.message})`),
      );
    }
    return runSandbox(this.env.LOADER, parsed.data, bridge);
  }

  async ping(): Promise<string> {
    return "ok";
  }
}

/** A trivial TypeScript execution: its first run compiles the compiler and the loader's path. */
const WARM_UP = SandboxRequest.parse({
  code: "return 1",
  language: "typescript",
  cpuMs: 30_000,
  isolate: {
    timeoutMs: 60_000,
    maxSteps: 1_000_000,
    maxOutputChars: 1_000,
    maxArgChars: 1_000,
    egress: false,
  },
  // What it warms is the compiler and a fresh isolate's load; warm workers are per team.
  placement: { fresh: true },
});

export default {
  /**
   * POST /warm (the supervisor's first request) makes this sandbox host's Python snapshot and runs one
   * TypeScript execution: on a starved machine each takes long enough, without answering probes, for a
   * first execution to miss its deadline. Anything else answers the supervisor's liveness probe.
   */
  async fetch(request, env) {
    if (request.method === "POST" && new URL(request.url).pathname === "/warm") {
      const ts = await runSandbox(env.LOADER, WARM_UP, undefined);
      const python = (await pythonSnapshot(env.LOADER)) !== null;
      const problems = [
        ...(ts.result === 1 ? [] : [`no TypeScript execution (${ts.error?.message ?? "no result"})`]),
        ...(python ? [] : ["no Python snapshot (see the sandbox host's log)"]),
      ];
      return problems.length === 0
        ? new Response("warm")
        : new Response(problems.join("; "), { status: 503 });
    }
    return new Response("sandbox host: ok");
  },
} satisfies ExportedHandler<HostEnv>;
