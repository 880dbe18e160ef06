import { z } from "zod";
import { MAX_CUTS } from "./caps";

/** Languages `execute` accepts (Python runs in Pyodide). */
export const LANGUAGES = ["typescript", "javascript", "python"] as const;

export const executeInputShape = {
  code: z
    .string()
    .describe(
      "Body of an async function: top-level await works, `return` gives the result. A whole `async () => { … }` expression is accepted too.",
    ),
  language: z.enum(LANGUAGES).optional().describe("Default typescript."),
  timeoutMs: z.number().positive().optional().describe("Wall-clock limit in ms."),
  sessionId: z
    .string()
    .max(100)
    .optional()
    .describe("Session for state/workspace (default: this MCP session; a result's sessionId)."),
};
export const ExecuteInput = z.object(executeInputShape).strict();
export type ExecuteInput = z.infer<typeof ExecuteInput>;

export const ExecutionError = z.object({
  name: z.string(),
  message: z.string(),
  // Plain numbers: `.int()` would put ±2^53 bounds into the JSON Schema every client loads.
  line: z.number().optional(),
  column: z.number().optional(),
  stack: z.string().optional(),
  /** an error's own fields (`code`, `status`, …) or a thrown non-Error, JSON (ERROR_CAPS.data) */
  data: z.unknown().optional(),
});
export type ExecutionError = z.infer<typeof ExecutionError>;

/** One place a result was cut: `kept` of `of` items, keys or characters at `path` (`result.tickets`). */
export const Cut = z.object({
  path: z.string().max(130),
  kept: z.number(),
  of: z.number(),
  unit: z.enum(["items", "keys", "characters"]),
});
export type Cut = z.infer<typeof Cut>;

/** Present when the result was cut to fit EXEC_MAX_OUTPUT_CHARS; the result keeps its JSON type. */
export const Truncation = z.object({
  /** characters of JSON of the whole result (a lower bound when `lowerBound`) */
  totalChars: z.number(),
  /** characters of JSON of the result as returned */
  keptChars: z.number(),
  lowerBound: z.boolean().optional(),
  cuts: z.array(Cut).max(MAX_CUTS),
  moreCuts: z.number().optional(),
  /** the session's workspace file that holds the whole result */
  file: z.string().max(200).optional(),
});
export type Truncation = z.infer<typeof Truncation>;

/** One tool (or skill, or session method) in `stats.calls`: its calls aggregated. */
export const CallStat = z.object({ name: z.string(), count: z.number(), errors: z.number(), ms: z.number() });
export type CallStat = z.infer<typeof CallStat>;

export const executeResultShape = {
  result: z.unknown().optional(),
  logs: z.array(z.string()),
  error: ExecutionError.optional(),
  /** things the agent should know that did not fail the execution */
  warnings: z.array(z.string()).optional(),
  truncation: Truncation.optional(),
  stats: z.object({
    durationMs: z.number(),
    toolCalls: z.number(),
    truncated: z.boolean(),
    /** per tool, most called first; the rest summed in one entry named "(others)" */
    calls: z.array(CallStat).optional(),
    fetches: z.number().optional(),
  }),
  /** the session the execution ran in (given, the MCP session's, or made on first use) */
  sessionId: z.string().optional(),
};
export const ExecuteResult = z.object(executeResultShape);

/**
 * The `execute` tool's outputSchema as clients list it (tier 1 counts every token): `error`, `stats`
 * and `truncation` with their main fields only, open to the rest; the answers follow ExecuteResult.
 */
export const executeOutputShape = {
  ...executeResultShape,
  error: z.looseObject({ name: z.string(), message: z.string() }).optional(),
  truncation: z
    .looseObject({})
    .optional()
    .describe("When the result was cut: totalChars, keptChars, cuts, file?"),
  stats: z.looseObject({ durationMs: z.number(), toolCalls: z.number() }),
};
export type ExecuteResult = z.infer<typeof ExecuteResult>;

/** The result of an execution that failed before or instead of running: no result, no logs. */
export function failedExecution(
  error: ExecutionError,
  stats: ExecuteResult["stats"] = { durationMs: 0, toolCalls: 0, truncated: false },
): ExecuteResult {
  return { logs: [], error, stats };
}
