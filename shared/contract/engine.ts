import { SESSION_LIMITS } from "./caps";

/**
 * The execution engines (contract "Execution engines and cost"): `quickjs` runs each execution's code
 * as data in a fresh QuickJS wasm instance inside a warm Dynamic Worker of the team's pool;
 * `isolate` loads a fresh Dynamic Worker (a V8 isolate) per execution.
 */
export const ENGINES = ["quickjs", "isolate"] as const;
export type Engine = (typeof ENGINES)[number];

/** Sizes of the `quickjs` engine, read by the gateway and inlined into the warm worker's code at build time. */
export const ENGINE_LIMITS = {
  /**
   * Interrupt-handler calls per second of computation (QuickJS calls it every 10,000 bytecode
   * steps): ~2,000 measured on the dev machine (docs/bench-log.md). An execution's fuel is this times
   * its CPU budget, min(timeoutMs, EXEC_CPU_MS).
   */
  fuelPerSecond: 2_000,
  /** Fuel the runtime gets after the code's ran out, to report the stop with its logs (~0.1 s). */
  graceFuel: 200,
  /** Of a warm worker's 128 MB, what its interpreters may hold at once. */
  workerBudgetBytes: 96 * 1024 * 1024,
  /** One interpreter's memory beyond its heap limit: wasm static data, stack, the glue. */
  instanceOverheadBytes: 4 * 1024 * 1024,
  /** QuickJS's stack limit per execution. */
  stackBytes: 512 * 1024,
  /** After the wall-clock limit, how long the engine waits for the runtime's report before writing its own. */
  reportGraceMs: 2_000,
  /** A URL the sandbox's URL class parses. */
  maxUrlChars: 65_536,
  maxFileBytes: SESSION_LIMITS.maxFileBytes,
} as const;

/** The `quickjs` engine's fuel for an execution whose CPU budget is `budgetMs`. */
export function fuelFor(budgetMs: number): number {
  return Math.ceil((budgetMs / 1000) * ENGINE_LIMITS.fuelPerSecond);
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

/** Gateway → warm worker: one execution (workers/sandbox/quickjs/engine.js `run`). */
export interface EngineRun {
  /** the runtime's modules and the agent's compiled module (workers/sandbox/parts.ts) */
  modules: Record<string, string>;
  options: import("./sandbox").IsolateOptions;
  fuel: number;
  memoryBytes: number;
  stackBytes: number;
  /** the longest report text the gateway accepts (reportCharCap) */
  reportCap: number;
  /** JSON text of one bridge call's arguments (tool arguments, a workspace file in base64) */
  maxCallChars: number;
}
