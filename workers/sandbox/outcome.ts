import { z } from "zod";

/**
 * What the in-isolate runtime's `run()` returns (workers/sandbox/runtime/runtime.js). Validated on
 * arrival: the agent's code shares the isolate with the runtime and may have tampered with it.
 */
export const RunOutcome = z.object({
  result: z.unknown().optional(),
  hasResult: z.boolean(),
  resultTruncated: z.boolean(),
  logs: z.array(z.string()),
  logsDropped: z.number().int().nonnegative(),
  calls: z.array(z.object({ name: z.string(), ms: z.number(), ok: z.boolean() })).max(100_000),
  error: z
    .object({
      name: z.string(),
      message: z.string(),
      stack: z.string().optional(),
      line: z.number().int().optional(),
    })
    .optional(),
});
export type RunOutcome = z.infer<typeof RunOutcome>;

export interface RunOptions {
  timeoutMs: number;
  maxSteps: number;
  maxOutputChars: number;
  maxToolCalls: number;
}

/** The RPC surface of the runtime's default entrypoint. */
export interface SandboxEntrypoint {
  run(options: RunOptions): Promise<unknown>;
}
