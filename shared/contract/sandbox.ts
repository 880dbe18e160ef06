import { z } from "zod";
import { ERROR_CAPS, MAX_LOG_LINES, MAX_SKILL_RUNS, SESSION_LIMITS, WARNING_CAPS } from "./caps";
import type { BRIDGE_METHODS } from "./engine";
import { CallStat, ExecutionError, LANGUAGES, Truncation } from "./execute";
import { DEFAULT_SKILL_LANGUAGE, MAX_SKILLS_PER_EXECUTION, SKILL_NAME, SkillLanguage } from "./skills";

/**
 * What crosses the sandbox boundary, as zod schemas: the one source of the shapes on both sides.
 * Everything that comes out of an isolate is written by code we do not trust, so every string and
 * list has a `.max()` and the text it arrives as is length-checked before it is parsed.
 */

export { ERROR_CAPS, MAX_LOG_LINES } from "./caps";

/** Options the host passes to the isolate's `run()`. */
export const IsolateOptions = z.object({
  timeoutMs: z.number().int().positive(),
  maxSteps: z.number().int().positive(),
  /** result JSON + logs together, after shaping; the isolate keeps at most twice this of each */
  maxOutputChars: z.number().int().positive(),
  /** JSON text of one tool call's arguments */
  maxArgChars: z.number().int().positive(),
  /** whether fetch() goes to the gateway's egress policy (else the isolate has no network) */
  egress: z.boolean(),
  /**
   * skills the code names that this runtime cannot run: the team does not have them, or (set by the
   * sandbox) they are Python and the runtime is JavaScript. Calling one asks the gateway, whose
   * error says which (UnknownSkillError, SkillLanguageError).
   */
  missingSkills: z
    .array(z.string().max(64))
    .max(2 * MAX_SKILLS_PER_EXECUTION)
    .default([]),
  /** Python's runtime: the Python skills the code names, run in its interpreter (set by the sandbox) */
  pythonSkills: z
    .array(z.object({ name: z.string().regex(SKILL_NAME), code: z.string().max(1_000_000) }))
    .max(MAX_SKILLS_PER_EXECUTION)
    .default([]),
  /** text is cut only where it splits no personal data (PII tokenization is on) */
  piiSafeCuts: z.boolean().default(false),
  /** a cut result is also reported whole (`wholeJson`), for the session's workspace */
  keepWholeResult: z.boolean().default(false),
  /** console lines also go to the gateway as they happen (`bridge.log`): someone is listening */
  liveLogs: z.boolean().default(false),
});
export type IsolateOptions = z.infer<typeof IsolateOptions>;

/** The text an isolate's `run()` may return is at most this long for these options. */
export function reportCharCap(options: Pick<IsolateOptions, "maxOutputChars" | "keepWholeResult">): number {
  return options.maxOutputChars * 6 + 64_000 + (options.keepWholeResult ? SESSION_LIMITS.maxFileBytes : 0);
}

/** An error's `data` as the isolate sends it: JSON of at most ERROR_CAPS.data characters. */
const ErrorData = z
  .unknown()
  .refine((value) => (JSON.stringify(value) ?? "").length <= ERROR_CAPS.data, "error data too long")
  .optional();

const Warnings = z.array(z.string().max(WARNING_CAPS.chars)).max(WARNING_CAPS.count);
const SkillRuns = z.array(CallStat.extend({ name: z.string().max(80) })).max(MAX_SKILL_RUNS);

/**
 * What the isolate's `runAgentCode()` returns, as JSON text (see reportCharCap): result and logs
 * already shaped to `maxOutputChars` (shared/output/shape.ts), which the host checks again.
 */
export const IsolateReport = z.object({
  /** the return value's JSON text, cut to fit without breaking it (see `truncation`) */
  resultJson: z.string().optional(),
  /** the whole result's JSON text, when it was cut and `keepWholeResult` */
  wholeJson: z.string().max(SESSION_LIMITS.maxFileBytes).optional(),
  truncation: Truncation.optional(),
  logs: z.array(z.string()).max(MAX_LOG_LINES + 1),
  /** the logs were cut or log calls dropped (the last line says how many) */
  logsCut: z.boolean(),
  /** calls the code left behind, and what became of them */
  warnings: Warnings.optional(),
  /** each skill's runs as the code saw them (inner calls included), for its `stats.calls` entry */
  skillRuns: SkillRuns.optional(),
  error: z
    .object({
      name: z.string().max(ERROR_CAPS.name),
      message: z.string().max(ERROR_CAPS.message),
      stack: z.string().max(ERROR_CAPS.stack).optional(),
      line: z.number().int().optional(),
      column: z.number().int().optional(),
      data: ErrorData,
    })
    .optional(),
});
export type IsolateReport = z.infer<typeof IsolateReport>;

/** A skill the execution's code names, loaded into its isolate as a module. */
export const LoadedSkill = z.object({
  name: z.string().regex(SKILL_NAME),
  version: z.number().int().positive(),
  code: z.string().max(1_000_000),
  language: SkillLanguage.default(DEFAULT_SKILL_LANGUAGE),
});
export type LoadedSkill = z.infer<typeof LoadedSkill>;

/**
 * A warm Dynamic Worker of the team's pool (its id names the team, the code's version and the slot)
 * and each execution's memory in it.
 */
export const WarmWorker = z.strictObject({
  id: z.string().max(120),
  memoryBytes: z.number().int().positive(),
});
export type WarmWorker = z.infer<typeof WarmWorker>;

/**
 * Where one execution runs, decided once by the gateway (workers/gateway/execution/placement.ts) from
 * the team's engine and the code: in a warm worker of the team's pool (the `quickjs` engine: QuickJS
 * for JavaScript, CPython for Python), or in a fresh Dynamic Worker made for it (the `isolate` engine,
 * and Python code that calls TypeScript skills on either). The sandbox's side picks the backend from
 * it and the language (workers/sandbox/run-sandbox.ts).
 */
export const Placement = z.union([
  z.strictObject({ warm: WarmWorker }),
  z.strictObject({ fresh: z.literal(true) }),
]);
export type Placement = z.infer<typeof Placement>;

/** Gateway → sandbox host: one execution. */
export const SandboxRequest = z.object({
  code: z.string().max(5_000_000),
  language: z.enum(LANGUAGES),
  cpuMs: z.number().int().positive(),
  isolate: IsolateOptions,
  skills: z.array(LoadedSkill).max(MAX_SKILLS_PER_EXECUTION).default([]),
  placement: Placement,
});
export type SandboxRequest = z.infer<typeof SandboxRequest>;

/** Sandbox host → gateway: the execution's outcome, already shaped to the output budget. */
export const SandboxOutcome = z.object({
  result: z.unknown().optional(),
  truncation: Truncation.optional(),
  warnings: Warnings.optional(),
  skillRuns: SkillRuns.optional(),
  logs: z.array(z.string()).max(MAX_LOG_LINES + 2),
  error: ExecutionError.extend({
    name: z.string().max(ERROR_CAPS.name),
    message: z.string().max(ERROR_CAPS.message + 200),
    stack: z.string().max(ERROR_CAPS.stack).optional(),
    data: ErrorData,
  }).optional(),
  truncated: z.boolean(),
});
export type SandboxOutcome = z.infer<typeof SandboxOutcome>;

/** The error of an execution the sandbox failed to run, not the code: it says why. */
export function sandboxError(why: string): ExecutionError {
  return { name: "SandboxError", message: `The sandbox failed: ${why}` };
}

/** The outcome of an execution the sandbox could not run (bad request, compile error, host failure). */
export function failedOutcome(error: SandboxOutcome["error"] & object): SandboxOutcome {
  return { logs: [], error, truncated: false };
}

/**
 * Time a host waits past an execution's limit for its isolate to report before giving up on it (the
 * gateway waits twice this for the host). The isolate's start and report must fit in it: ~50 ms on
 * a laptop, but a Python isolate restoring its snapshot took over 4 s on a starved 2-core machine,
 * where a shorter grace turned code stopped by its own guard into a host that missed its deadline.
 */
export const HOST_GRACE_MS = 10_000;

/** A bridge call's answer: the runtime turns `ok: false` into a thrown Error with that name. */
export type BridgeResult =
  | { ok: true; value: unknown }
  | { ok: false; error: { name: string; message: string; path?: string } };

/** The calls a sandbox can make on the gateway: the whole surface of the object it is handed. */
export interface SandboxBridgeApi {
  callTool(qualifiedName: unknown, argsJson: unknown): Promise<BridgeResult>;
  searchTools(optionsJson: unknown): Promise<BridgeResult>;
  /** `schema === true`: the input/output JSON Schema too (`getToolDefinition(name, { schema: true })`) */
  getToolDefinition(qualifiedName: unknown, schema?: unknown): Promise<BridgeResult>;
  fetch(request: unknown): Promise<Response>;
  /** `skills.<op>()`: "call" (arguments checked against the skill's inputSchema), save, list, get, delete */
  skills(op: unknown, payloadJson: unknown): Promise<BridgeResult>;
  /** one `state` / `workspace` / `session` call (a SessionCall, shared/contract/session.ts) */
  session(call: unknown): Promise<BridgeResult>;
  /**
   * Console lines logged since the last call, as JSON text of a string array (each line as the
   * result's `logs` has it: `[level] text`); only with `liveLogs`, at most one call in flight.
   */
  log(linesJson: unknown): Promise<void>;
}

/** Every bridge method but fetch crosses the QuickJS boundary as JSON (shared/contract/engine.ts). */
type BridgeJsonMethods = Exclude<keyof SandboxBridgeApi, "fetch">;
const _allForwarded: Record<BridgeJsonMethods, (typeof BRIDGE_METHODS)[number]> = {
  callTool: "callTool",
  searchTools: "searchTools",
  getToolDefinition: "getToolDefinition",
  skills: "skills",
  session: "session",
  log: "log",
};
void _allForwarded;

/** The sandbox host's surface (in-process, or the `SANDBOX_HOST` service under `npm run dev`). */
export interface SandboxHostApi {
  /** runs one execution in a fresh isolate; the answer is checked as a SandboxOutcome */
  runSandbox(request: SandboxRequest, bridge: SandboxBridgeApi | undefined): Promise<unknown>;
  /** answers at once when the host is alive (only a host in another process has it) */
  ping?(): Promise<unknown>;
}

/** Gateway → warm worker: one execution (workers/sandbox/quickjs/engine.js `run`, then interpreter.js and execution.js). */
export interface EngineRun {
  /** the runtime's modules and the agent's compiled module (workers/sandbox/parts.ts) */
  modules: Record<string, string>;
  options: IsolateOptions;
  fuel: number;
  /** EXEC_CPU_MS: names the limit when fuel runs out (cpuBudgetError) */
  cpuMs: number;
  memoryBytes: number;
  /** the longest report text the gateway accepts (reportCharCap) */
  reportCap: number;
  /**
   * JSON text of one bridge call's arguments (tool arguments, a state value); byte arrays cross beside
   * it. backends/quickjs-warm.ts still sizes it for a workspace file in base64, as bytes first
   * crossed: looser than needed, left as it was.
   */
  maxCallChars: number;
}
