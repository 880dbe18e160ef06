import { z } from "zod";

/** Languages `execute` accepts. Python is part of the external contract but not served yet. */
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
});
export type ExecutionError = z.infer<typeof ExecutionError>;

export const executeResultShape = {
  result: z.unknown().optional(),
  logs: z.array(z.string()),
  error: ExecutionError.optional(),
  stats: z.object({
    durationMs: z.number(),
    toolCalls: z.number(),
    truncated: z.boolean(),
    calls: z.array(z.object({ name: z.string(), ms: z.number(), ok: z.boolean() })).optional(),
    fetches: z.number().optional(),
  }),
  /** the session the execution ran in (given, the MCP session's, or made on first use) */
  sessionId: z.string().optional(),
};
export const ExecuteResult = z.object(executeResultShape);
export type ExecuteResult = z.infer<typeof ExecuteResult>;
