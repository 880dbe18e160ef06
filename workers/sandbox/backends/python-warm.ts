import {
  failedOutcome,
  type SandboxBridgeApi,
  type SandboxRequest,
  sandboxError,
} from "../../../shared/contract/sandbox";
import { PYTHON_WARM_MAIN, PYTHON_WARM_MODULES } from "../python/python-isolate";
import { type Backend, reportOutcome, type WarmPlacement } from "./backend";
import { callWorker, type SandboxCode, warmWorker } from "./dynamic-worker";

/** The warm Python worker's entrypoint (python/runtime/warm.js). */
interface PythonWarmEntrypoint {
  run(
    options: SandboxRequest["isolate"],
    code: string,
    bridge: SandboxBridgeApi | undefined,
    memoryBytes: number,
  ): Promise<unknown>;
}

const PYTHON_WARM_CODE: SandboxCode = { mainModule: PYTHON_WARM_MAIN, modules: PYTHON_WARM_MODULES };

/** Why a warm Python worker refuses code with TypeScript skills: its code is fixed, and they are modules. */
export const WARM_PYTHON_WITH_MODULES =
  "a warm Python worker cannot load TypeScript skills (skills); such code is placed in a fresh isolate";

/**
 * Python on the `quickjs` engine: the team's warm Python worker (python/runtime/warm.js) executes the
 * code in its CPython instance of `warm.memoryBytes`, restored from its snapshot once and set back
 * to that state after each execution (python/runtime/reset.js). Python skills come as
 * data (`isolate.pythonSkills`); code that calls TypeScript skills is placed fresh (fresh-python.ts).
 */
export const pythonWarm: Backend<WarmPlacement> = {
  async execute(call, { warm }) {
    const { loader, request, bridge } = call;
    if (request.skills.length > 0) return failedOutcome(sandboxError(WARM_PYTHON_WITH_MODULES));
    const report = await callWorker(
      warmWorker(loader, warm.id, PYTHON_WARM_CODE, request),
      request,
      (entrypoint) =>
        (entrypoint as PythonWarmEntrypoint).run(request.isolate, request.code, bridge, warm.memoryBytes),
    );
    const shaped = await reportOutcome(call, report);
    if (!report.error) return shaped;
    if (report.error.name !== "MemoryError") return { ...shaped, error: report.error };
    const message = `Python ran out of memory (its limit is ${Math.round(warm.memoryBytes / 1_048_576)} MB, the interpreter included); build smaller values: page through data and keep only the fields you need`;
    return { ...shaped, error: { ...report.error, message } };
  },
};
