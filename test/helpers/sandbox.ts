import { env } from "cloudflare:test";
import type { ExecuteInput, ExecuteResult } from "../../shared/contract/execute";
import { type ExecutorDeps, executeCode, inProcessHost } from "../../workers/sandbox/executor";
import type { SandboxLimits } from "../../workers/sandbox/limits";

export const LIMITS: SandboxLimits = {
  timeoutMs: 5_000,
  maxTimeoutMs: 10_000,
  cpuMs: 5_000,
  maxCodeChars: 10_000,
  maxOutputChars: 24_000,
  maxSteps: 1_000_000_000,
  maxToolCalls: 200,
  maxDiscoveryCalls: 100,
  maxArgChars: 2_000_000,
  maxSessionCalls: 1_000,
};

/** The real Worker Loader, counting what it is asked to load. */
export function countingLoader(): { loader: WorkerLoader; loads: WorkerLoaderWorkerCode[] } {
  const loads: WorkerLoaderWorkerCode[] = [];
  const loader = {
    load(code: WorkerLoaderWorkerCode) {
      loads.push(code);
      return env.LOADER.load(code);
    },
    get: env.LOADER.get.bind(env.LOADER),
  } satisfies WorkerLoader;
  return { loader, loads };
}

/** Executor dependencies around the real Worker Loader (or `loader`), in this isolate. */
export function deps(
  limits: Partial<SandboxLimits> = {},
  extra: Partial<ExecutorDeps> = {},
  loader: WorkerLoader = env.LOADER,
): ExecutorDeps {
  return { host: inProcessHost(loader), limits: { ...LIMITS, ...limits }, ...extra };
}

export function run(
  code: string,
  extra: Partial<ExecuteInput> = {},
  limits: Partial<SandboxLimits> = {},
): Promise<ExecuteResult> {
  return executeCode(deps(limits), { code, ...extra });
}
