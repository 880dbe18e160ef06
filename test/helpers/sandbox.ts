import { env } from "cloudflare:test";
import { it } from "vitest";
import { DEFAULT_ENGINE, ENGINES, type Engine } from "../../shared/contract/engine";
import type { ExecuteInput, ExecuteResult } from "../../shared/contract/execute";
import type { Placement } from "../../shared/contract/sandbox";
import { disposeQuietly } from "../../shared/dispose";
import type { ExecutionLimits } from "../../workers/gateway/config";
import { executionTimeoutMs } from "../../workers/gateway/execution/limits";
import { placeExecution } from "../../workers/gateway/execution/placement";
import {
  type SandboxDeps,
  sendToSandbox as sendPlanned,
} from "../../workers/gateway/execution/send-to-sandbox";
import { inProcessHost } from "../../workers/sandbox/run-sandbox";
import { testContext } from "./context";

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

/** Every engine, the default first: what each sandbox suite runs on (`describe.each(TEST_ENGINES)`). */
export const TEST_ENGINES: readonly Engine[] = [
  DEFAULT_ENGINE,
  ...ENGINES.filter((e) => e !== DEFAULT_ENGINE),
];

let countingLoaders = 0;

type RunStub = { run(run: { modules?: Record<string, string> }, ...rest: unknown[]): Promise<unknown> };

/**
 * The real Worker Loader, counting what it is asked to load (a fresh isolate, or a warm worker's
 * code) and recording each execution's modules (`executions`): the isolate's, or those a quickjs
 * warm worker gets as data in `run()`.
 */
export function countingLoader(): {
  loader: WorkerLoader;
  loads: WorkerLoaderWorkerCode[];
  executions: Record<string, unknown>[];
} {
  const loads: WorkerLoaderWorkerCode[] = [];
  const executions: Record<string, unknown>[] = [];
  const instance = ++countingLoaders;
  const loader = {
    load(code: WorkerLoaderWorkerCode) {
      loads.push(code);
      executions.push(code.modules);
      return env.LOADER.load(code);
    },
    // Warm workers under an id of this loader's own, so their code is asked for (and recorded) here.
    get(name: string | null, getCode: () => WorkerLoaderWorkerCode | Promise<WorkerLoaderWorkerCode>) {
      const stub = env.LOADER.get(`${name}#${instance}`, async () => {
        const code = await getCode();
        loads.push(code);
        return code;
      });
      const getEntrypoint = (...args: Parameters<WorkerStub["getEntrypoint"]>) => {
        const entrypoint = stub.getEntrypoint(...args) as unknown as RunStub & Disposable;
        return {
          run(run: { modules?: Record<string, string> }, ...rest: unknown[]) {
            if (run.modules) executions.push(run.modules);
            return entrypoint.run(run, ...rest);
          },
          [Symbol.dispose]: () => disposeQuietly(entrypoint),
        };
      };
      return {
        ...stub,
        getEntrypoint,
        [Symbol.dispose]: () => disposeQuietly(stub),
      } as unknown as WorkerStub;
    },
  } satisfies WorkerLoader;
  return { loader, loads, executions };
}

/**
 * Where an execution of the unit tests' team runs on `engine`, as the gateway places it
 * (execution/placement.ts): quickjs in the team's one warm worker (a pool of one slot: the count it
 * keeps decides nothing, so the slot is given back at once).
 */
function placed(engine: Engine, language: ExecuteInput["language"], memoryBytes?: number): Placement {
  const { sandbox } = testContext().config;
  const config = { ...sandbox, engine, poolSize: 1, memoryBytes: memoryBytes ?? sandbox.memoryBytes };
  const place = placeExecution("unit-sandbox", config, language, []);
  place.release();
  return place.placement;
}

/** `sendToSandbox` with the timeout a plan would resolve for `input` (tests send inputs, not plans). */
export function sendToSandbox(deps: SandboxDeps, input: ExecuteInput): Promise<ExecuteResult> {
  return sendPlanned(deps, input, executionTimeoutMs(input, deps.limits));
}

/**
 * Running code on `engine` (default: the deployment's default) with the real Worker Loader, in this
 * isolate; on quickjs each interpreter has `memoryBytes` (default: EXEC_MEMORY_MB).
 */
export function sandboxOn(engine: Engine = DEFAULT_ENGINE, memoryBytes?: number) {
  /** Sandbox dependencies around the real Worker Loader (or `loader`); `extra.placement` for Python's warm worker. */
  const deps = (
    limits: Partial<ExecutionLimits> = {},
    extra: Partial<SandboxDeps> = {},
    loader: WorkerLoader = env.LOADER,
  ): SandboxDeps => ({
    host: inProcessHost(loader),
    placement: placed(engine, "typescript", memoryBytes),
    limits: { ...LIMITS, ...limits },
    ...extra,
  });
  const run = (
    code: string,
    extra: Partial<ExecuteInput> = {},
    limits: Partial<ExecutionLimits> = {},
  ): Promise<ExecuteResult> =>
    sendToSandbox(deps(limits, { placement: placed(engine, extra.language, memoryBytes) }), {
      code,
      ...extra,
    });
  return { engine, deps, run };
}

/** On the default engine. */
export const { deps, run } = sandboxOn();

/**
 * `it` for a test whose assertion `engine` is known to fail today (listed in the test with why), as
 * `it.fails`: the suite stays green while the gap is there and goes red the day it is closed.
 */
export function knownGapOn(gap: Engine, engine: Engine): typeof it | typeof it.fails {
  return engine === gap ? it.fails : it;
}
