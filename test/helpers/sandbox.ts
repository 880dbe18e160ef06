import { env } from "cloudflare:test";
import type { ExecuteInput, ExecuteResult } from "../../shared/contract/execute";
import type { ExecutionLimits } from "../../workers/gateway/execution/limits";
import { type SandboxDeps, sendToSandbox } from "../../workers/gateway/execution/send-to-sandbox";
import { inProcessHost } from "../../workers/sandbox/run-sandbox";

// Generous for a starved CI machine (a million-element result took over 5 s there); tests of a
// timeout pass their own.
export const LIMITS: ExecutionLimits = {
  timeoutMs: 30_000,
  maxTimeoutMs: 60_000,
  cpuMs: 5_000,
  maxCodeChars: 10_000,
  maxOutputChars: 24_000,
  maxSteps: 1_000_000_000,
  maxToolCalls: 200,
  maxDiscoveryCalls: 100,
  maxArgChars: 2_000_000,
  maxSessionCalls: 1_000,
};

let countingLoaders = 0;

/** The real Worker Loader, counting what it is asked to load (fresh, or a warm worker's code). */
export function countingLoader(): { loader: WorkerLoader; loads: WorkerLoaderWorkerCode[] } {
  const loads: WorkerLoaderWorkerCode[] = [];
  const instance = ++countingLoaders;
  const loader = {
    load(code: WorkerLoaderWorkerCode) {
      loads.push(code);
      return env.LOADER.load(code);
    },
    // Warm workers under an id of this loader's own, so their code is asked for (and recorded) here.
    get(name: string | null, getCode: () => WorkerLoaderWorkerCode | Promise<WorkerLoaderWorkerCode>) {
      return env.LOADER.get(`${name}#${instance}`, async () => {
        const code = await getCode();
        loads.push(code);
        return code;
      });
    },
  } satisfies WorkerLoader;
  return { loader, loads };
}

/** Sandbox dependencies around the real Worker Loader (or `loader`), in this isolate. */
export function deps(
  limits: Partial<ExecutionLimits> = {},
  extra: Partial<SandboxDeps> = {},
  loader: WorkerLoader = env.LOADER,
): SandboxDeps {
  return { host: inProcessHost(loader), limits: { ...LIMITS, ...limits }, ...extra };
}

export function run(
  code: string,
  extra: Partial<ExecuteInput> = {},
  limits: Partial<ExecutionLimits> = {},
): Promise<ExecuteResult> {
  return sendToSandbox(deps(limits), { code, ...extra });
}
