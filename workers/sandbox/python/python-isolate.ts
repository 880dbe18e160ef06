import type { SandboxBridgeApi, SandboxRequest } from "../../../shared/contract/sandbox";
import { log } from "../../../shared/log";
import { SANDBOX_COMPATIBILITY_DATE } from "../backends/dynamic-worker";
import { RUNTIME_MODULES } from "../generated";
import { SKILLS_INDEX_MODULE } from "../skill-modules";
import { PYTHON_MODULES } from "./dist/manifest.mjs";

export const PYTHON_MAIN = "isolate.js";
/** The warm Python worker's main module (quickjs engine): runtime/warm.js. */
export const PYTHON_WARM_MAIN = "warm.js";
/** The TypeScript runtime's modules that run skills (TypeScript) called from Python. */
const JS_RUNTIME = Object.fromEntries(
  ["bridge-io.js", "guard.js", "invoke-skills.js", "python-support.js", "session.js", "tools.js"].map(
    (name) => [name, RUNTIME_MODULES[name] as string],
  ),
);
const SNAPSHOT_TIMEOUT_MS = 60_000;

/**
 * The warm Python worker's code: fixed, so one id names it (the gateway's worker-pool.ts); it makes
 * its own snapshot.
 */
export const PYTHON_WARM_MODULES: Record<string, WorkerLoaderModule | string> = {
  ...PYTHON_MODULES,
  ...JS_RUNTIME,
  [SKILLS_INDEX_MODULE]: "export default {};",
  "snapshot.js": "export default null;",
};

/** A fresh Python isolate's entrypoint (runtime/isolate.js). */
export interface PythonEntrypoint {
  runAgentCode(
    options: SandboxRequest["isolate"],
    code: string,
    bridge: SandboxBridgeApi | undefined,
  ): Promise<unknown>;
  snapshot(): Promise<unknown>;
}

/**
 * Per-isolate state: the Python snapshot, made once; null: none could be made here, so every Python
 * isolate boots from scratch (~1.5 s).
 */
let snapshot: Promise<ArrayBuffer | null> | undefined;

/**
 * The Worker Loader `modules` of a Python isolate: pyodide's files (dist/, from the npm package at
 * build time) and a memory snapshot of a booted interpreter, made by the first Python execution of
 * the sandbox host's isolate (one cold boot, ~2 s) and kept in memory; later isolates restore it (~0.2 s).
 */
export async function pythonModules(
  loader: WorkerLoader,
  skills: Record<string, string>,
): Promise<Record<string, WorkerLoaderModule | string>> {
  const snap = await pythonSnapshot(loader);
  const base = { ...PYTHON_MODULES, ...JS_RUNTIME, ...skills };
  if (!snap) return { ...base, "snapshot.js": "export default null;" };
  return {
    ...base,
    "snapshot.bin": { data: snap },
    "snapshot.js": 'import s from "./snapshot.bin"; export default s;',
  };
}

/**
 * The sandbox host's snapshot, made on first call. The dev supervisor asks for it right after the
 * sandbox host starts (POST /warm), so the seconds of making it are never taken for a hang.
 */
export function pythonSnapshot(loader: WorkerLoader): Promise<ArrayBuffer | null> {
  snapshot ??= makeSnapshot(loader);
  return snapshot;
}

async function makeSnapshot(loader: WorkerLoader): Promise<ArrayBuffer | null> {
  const started = Date.now();
  const worker = loader.load({
    compatibilityDate: SANDBOX_COMPATIBILITY_DATE,
    mainModule: PYTHON_MAIN,
    modules: PYTHON_WARM_MODULES,
    env: {},
    globalOutbound: null,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const entrypoint = worker.getEntrypoint() as unknown as PythonEntrypoint;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timed out")), SNAPSHOT_TIMEOUT_MS);
    });
    const bytes = await Promise.race([entrypoint.snapshot(), late]);
    if (!(bytes instanceof ArrayBuffer)) throw new Error("the isolate answered without bytes");
    log("info", "python snapshot made", { bytes: bytes.byteLength, ms: Date.now() - started });
    return bytes;
  } catch (err) {
    log("warn", "python snapshot failed; Python isolates boot without one", {
      error: (err instanceof Error ? err.message : String(err)).slice(0, 500),
    });
    return null;
  } finally {
    clearTimeout(timer);
  }
}
