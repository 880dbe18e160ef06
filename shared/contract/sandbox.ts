import { z } from "zod";
import { ExecutionError } from "./execute";
import { MAX_SKILLS_PER_EXECUTION, SKILL_NAME } from "./skills";

/**
 * What crosses the sandbox boundary, as zod schemas: the one source of the shapes on both sides.
 * Everything that comes out of an isolate is written by code we do not trust, so every string and
 * list has a `.max()` and the text it arrives as is length-checked before it is parsed.
 */

/** Error fields as the isolate clips them; the host refuses longer ones. */
export const ERROR_CAPS = { name: 200, message: 4_000, stack: 8_000 } as const;
/** Log lines one execution may keep (beyond the character budget, calls are only counted). */
export const MAX_LOG_LINES = 10_000;

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
  /** skills the code names that the team does not have (calling one throws UnknownSkillError) */
  missingSkills: z.array(z.string().max(64)).max(MAX_SKILLS_PER_EXECUTION).default([]),
});
export type IsolateOptions = z.infer<typeof IsolateOptions>;

/** The text an isolate's `run()` may return is at most this long for these options. */
export function reportCharCap(options: Pick<IsolateOptions, "maxOutputChars">): number {
  return options.maxOutputChars * 6 + 64_000;
}

/** What the isolate's `run()` returns, as JSON text (see reportCharCap). */
export const IsolateReport = z.object({
  /** the return value's JSON text; cut (and then not JSON) when `resultTruncated` */
  resultJson: z.string().optional(),
  resultTruncated: z.boolean(),
  logs: z.array(z.string()).max(MAX_LOG_LINES),
  logsDropped: z.number().int().nonnegative(),
  error: z
    .object({
      name: z.string().max(ERROR_CAPS.name),
      message: z.string().max(ERROR_CAPS.message),
      stack: z.string().max(ERROR_CAPS.stack).optional(),
      line: z.number().int().optional(),
      column: z.number().int().optional(),
    })
    .optional(),
});
export type IsolateReport = z.infer<typeof IsolateReport>;

/** A skill the execution's code names, loaded into its isolate as a module. */
export const LoadedSkill = z.object({
  name: z.string().regex(SKILL_NAME),
  version: z.number().int().positive(),
  code: z.string().max(1_000_000),
});
export type LoadedSkill = z.infer<typeof LoadedSkill>;

/** Gateway → sandbox host: one execution. */
export const SandboxRequest = z.object({
  code: z.string().max(5_000_000),
  language: z.enum(["typescript", "javascript", "python"]),
  cpuMs: z.number().int().positive(),
  isolate: IsolateOptions,
  skills: z.array(LoadedSkill).max(MAX_SKILLS_PER_EXECUTION).default([]),
});
export type SandboxRequest = z.infer<typeof SandboxRequest>;

/** Sandbox host → gateway: the execution's outcome, already shaped to the output budget. */
export const SandboxOutcome = z.object({
  result: z.unknown().optional(),
  logs: z.array(z.string()).max(MAX_LOG_LINES + 2),
  error: ExecutionError.extend({
    name: z.string().max(ERROR_CAPS.name),
    message: z.string().max(ERROR_CAPS.message + 200),
    stack: z.string().max(ERROR_CAPS.stack).optional(),
  }).optional(),
  truncated: z.boolean(),
});
export type SandboxOutcome = z.infer<typeof SandboxOutcome>;

/** A bridge call's answer: the runtime turns `ok: false` into a thrown Error with that name. */
export type BridgeResult =
  | { ok: true; value: unknown }
  | { ok: false; error: { name: string; message: string; path?: string } };

/** The calls a sandbox can make on the gateway: the whole surface of the object it is handed. */
export interface SandboxBridgeApi {
  callTool(qualifiedName: unknown, argsJson: unknown): Promise<BridgeResult>;
  searchTools(optionsJson: unknown): Promise<BridgeResult>;
  getToolDefinition(qualifiedName: unknown): Promise<BridgeResult>;
  fetch(request: unknown): Promise<Response>;
  /** `skills.<op>()`: "call" (arguments checked against the skill's inputSchema), save, list, get, delete */
  skills(op: unknown, payloadJson: unknown): Promise<BridgeResult>;
  /** one `state` / `workspace` / `session` call (a SessionCall, shared/contract/session.ts) */
  session(call: unknown): Promise<BridgeResult>;
}

/** The sandbox host's surface (in-process, or the `SANDBOX_HOST` service under `npm run dev`). */
export interface SandboxHostApi {
  run(request: SandboxRequest, bridge: SandboxBridgeApi | undefined): Promise<unknown>;
  /** answers at once when the host is alive (only a host in another process has it) */
  ping?(): Promise<unknown>;
}
