import { SESSION_LIMITS } from "../../../shared/contract/caps";
import { fuelFor } from "../../../shared/contract/engine";
import {
  type EngineRun,
  failedOutcome,
  reportCharCap,
  type SandboxBridgeApi,
  type SandboxRequest,
} from "../../../shared/contract/sandbox";
import { QUICKJS_MAIN, QUICKJS_MODULES } from "../quickjs/dist/manifest.mjs";
import { quickjsError } from "../quickjs-error";
import { type Backend, timed, type WarmPlacement } from "./backend";
import { callWorker, type SandboxCode, warmWorker } from "./dynamic-worker";
import { ISOLATE_MAIN, javascriptModules, javascriptOutcome } from "./javascript";

/** The quickjs engine's warm worker (quickjs/engine.js). */
interface WarmEntrypoint {
  run(run: EngineRun, bridge: SandboxBridgeApi | undefined): Promise<unknown>;
}

const QUICKJS_CODE: SandboxCode = { mainModule: QUICKJS_MAIN, modules: QUICKJS_MODULES };

/**
 * TypeScript/JavaScript on the `quickjs` engine: the team's warm worker (quickjs/engine.js) gets the
 * runtime's and the agent's modules as data and executes them in a fresh QuickJS interpreter of
 * `warm.memoryBytes`; QuickJS's names for its limits become the contract's (quickjs-error.ts).
 */
export const quickjsWarm: Backend<WarmPlacement> = {
  async execute(call, { warm }) {
    const { loader, request } = call;
    const built = await javascriptModules(call, true);
    if (!built.ok) return failedOutcome(built.error);
    const data = engineRun(request, built.modules, warm.memoryBytes);
    const report = await timed(call.clock, "isolate", () =>
      callWorker(warmWorker(loader, warm.id, QUICKJS_CODE, request), request, (entrypoint) =>
        (entrypoint as WarmEntrypoint).run(data, built.bridge),
      ),
    );
    return javascriptOutcome(call, report, (error) => quickjsError(error, request, warm.memoryBytes));
  },
};

/** What the warm worker needs for one execution: the modules as data and the interpreter's bounds. */
function engineRun(request: SandboxRequest, modules: Record<string, string>, memoryBytes: number): EngineRun {
  // The runtime's main module is the isolate engine's; a warm worker has run-code.js built in.
  const { [ISOLATE_MAIN]: _main, ...perExecution } = modules;
  return {
    modules: perExecution,
    options: request.isolate,
    fuel: fuelFor(Math.min(request.isolate.timeoutMs, request.cpuMs)),
    cpuMs: request.cpuMs,
    memoryBytes,
    reportCap: reportCharCap(request.isolate),
    maxCallChars:
      Math.max(request.isolate.maxArgChars, Math.ceil((SESSION_LIMITS.maxFileBytes * 4) / 3)) + 65_536,
  };
}
