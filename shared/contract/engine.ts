/**
 * The execution engines (contract "Execution engines and cost"): `quickjs` runs each execution's code
 * as data in a warm Dynamic Worker of the team's pool (JavaScript in a fresh QuickJS wasm instance,
 * Python in a fresh CPython instance); `isolate` loads a fresh Dynamic Worker (a V8 isolate) per
 * execution. Where one execution runs is its placement (Placement, sandbox.ts).
 */
export const ENGINES = ["quickjs", "isolate"] as const;
export type Engine = (typeof ENGINES)[number];
/** The engine of a deployment that names none (SANDBOX_ENGINE unset) and of a team without its own. */
export const DEFAULT_ENGINE: Engine = "quickjs";

/** A Dynamic Worker's memory on Cloudflare, its isolate's limit: a warm worker's, and an isolate-engine execution's. */
const ISOLATE_BYTES = 128 * 1024 * 1024;
/** Of an isolate's memory, what code may hold; the rest is the Worker's own code, its runtime and the collector's room. */
const CODE_BYTES = ISOLATE_BYTES - 32 * 1024 * 1024;

/**
 * The `isolate` engine's memory meter (workers/sandbox/runtime/memory.js): what one execution's
 * metered values may hold, the share of its isolate's 128 MB a warm worker gives its interpreters.
 * Local workerd sets an isolate no memory limit; on Cloudflare the isolate's own limit stands behind it.
 */
export const ISOLATE_METER_BYTES = CODE_BYTES;

/**
 * Sizes of the `quickjs` engine's JavaScript warm worker, read by the sandbox and inlined into the
 * worker's code at build time.
 */
export const QUICKJS_LIMITS = {
  /**
   * Fuel per second of an execution's CPU budget, min(timeoutMs, EXEC_CPU_MS). A unit of fuel is one
   * call of QuickJS's interrupt handler, which it makes every 10,000 loop back-edges and function
   * calls and from its regex engine: ~5,600 calls per CPU second for an empty loop and ~2,000 for a
   * loop with a body (dev machine, docs/bench-log.md), so a budget buys between 0.5 and 1.5 times its
   * length in CPU time. Time spent inside one native call (a big JSON.stringify) moves no fuel: the
   * handler also stops at the wall-clock limit where the clock moves (local workerd), and on
   * Cloudflare EXEC_CPU_MS (limits.cpuMs, per invocation) ends it.
   */
  fuelPerSecond: 3_000,
  /** Fuel the runtime gets after the code's ran out, to report the stop with its logs (~0.1 s). */
  graceFuel: 200,
  /** Of a warm worker's 128 MB, what its interpreters may hold at once (interpretersThatFit). */
  workerBudgetBytes: CODE_BYTES,
  /** A fresh interpreter's linear memory, the QuickJS module's minimum (256 pages): its static data, stack and prelude. */
  interpreterBaseBytes: 16 * 1024 * 1024,
  /** One running interpreter's memory outside its linear memory: the glue's objects and handles. */
  instanceOverheadBytes: 4 * 1024 * 1024,
  /**
   * QuickJS's stack limit per execution: low enough that QuickJS stops a deep recursion
   * (`InternalError: stack overflow`, reported as RangeError) before the wasm calls beneath it
   * exhaust the host's own stack (512 KiB did not, in Node and workerd).
   */
  stackBytes: 256 * 1024,
  /** After the wall-clock limit, how long the engine waits for the runtime's report before writing its own. */
  reportGraceMs: 2_000,
  /** A URL the sandbox's URL class parses. */
  maxUrlChars: 65_536,
  /** Byte arrays one bridge call may carry beside its JSON (a workspace write has one). */
  maxCallBuffers: 16,
} as const;

/**
 * The hard maximum of the linear memory of an interpreter whose execution's limit is `memoryBytes`
 * (EXEC_MEMORY_MB): a fresh interpreter's memory and the limit beyond it, in whole wasm pages (the
 * limit alone left an 8 MB result no room to be copied into its report). Past it the allocator's
 * growth is refused and the execution ends with ResourceLimitError.
 */
export function interpreterMaximumBytes(memoryBytes: number): number {
  return QUICKJS_LIMITS.interpreterBaseBytes + Math.ceil(memoryBytes / 65_536) * 65_536;
}

/**
 * How many interpreters of `memoryBytes` a warm worker runs at once (at least one): each of its
 * linear memories may be at its maximum, the running ones' and the one more it keeps for the
 * interpreter prepared ahead (workers/sandbox/quickjs/memories.js reuses them, zeroed, instead of
 * leaving grown ones to a GC that does not come soon). The engine admits executions by it
 * (workers/sandbox/quickjs/engine.js). At the default 32 MB that is one, and two memories of 48 MB.
 */
export function interpretersThatFit(memoryBytes: number): number {
  const each = interpreterMaximumBytes(memoryBytes) + QUICKJS_LIMITS.instanceOverheadBytes;
  return Math.max(1, Math.floor(QUICKJS_LIMITS.workerBudgetBytes / each) - 1);
}

/**
 * A Python execution's CPython linear memory in a warm Python worker (its memory cannot grow past it:
 * MemoryError). The restored snapshot takes 20 MB of it, so code keeps ~20 MB. The worker holds the
 * compiled CPython, the snapshot's non-zero pages and one instance at a time: 40 MB (was 64) so that
 * these come nearest Cloudflare's 128 MB (docs/security.md "Memory on each engine" says what is
 * measured). A fresh Python isolate has its isolate's limit.
 */
export const PYTHON_WARM_MEMORY_BYTES = 40 * 1024 * 1024;

/**
 * The error of an execution whose fuel ran out. Fuel stands in for CPU time (on Cloudflare the
 * clock does not move while code computes), so it is named by the limit it enforces: the wall-clock
 * limit, or EXEC_CPU_MS when that is lower.
 */
export function cpuBudgetError(timeoutMs: number, cpuMs: number): { name: string; message: string } {
  return cpuMs < timeoutMs
    ? {
        name: "TimeoutError",
        message: `Execution exceeded its CPU time limit (${cpuMs} ms of computation); do less computation per execution, or split the work across executions`,
      }
    : {
        name: "TimeoutError",
        message: `Execution timed out after ${timeoutMs} ms (CPU-bound code: its computation budget ran out); do less computation per execution, or pass a larger timeoutMs to execute`,
      };
}

/** The error of an execution whose values outgrew its memory limit of `bytes` (either engine). */
export function memoryLimitError(bytes: number): { name: string; message: string } {
  return {
    name: "ResourceLimitError",
    message: `The execution ran out of memory (its limit is ${Math.round(bytes / 1_048_576)} MB); build smaller values: page through data and keep only the fields you need`,
  };
}

/** The `quickjs` engine's fuel for an execution whose CPU budget is `budgetMs`. */
export function fuelFor(budgetMs: number): number {
  return Math.ceil((budgetMs / 1000) * QUICKJS_LIMITS.fuelPerSecond);
}

/** The bridge's methods (SandboxBridgeApi) the QuickJS bridge forwards as JSON; `fetch` crosses as a request. */
export const BRIDGE_METHODS = [
  "callTool",
  "searchTools",
  "getToolDefinition",
  "skills",
  "session",
  "log",
] as const;
