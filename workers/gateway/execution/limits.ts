/** What one execution may use, from configuration (README "Configuration"; a team's `limits` override some). */
export interface ExecutionLimits {
  /** default wall-clock limit of one execution */
  timeoutMs: number;
  /** the most a caller may ask for with `timeoutMs` */
  maxTimeoutMs: number;
  /** CPU limit passed to the Worker Loader; enforced on Cloudflare, ignored by local workerd */
  cpuMs: number;
  maxCodeChars: number;
  /** result JSON + logs together */
  maxOutputChars: number;
  /** loop iterations + function entries, counted by the guard */
  maxSteps: number;
  /** tool calls one execution may make (egress fetches count separately, against the same number) */
  maxToolCalls: number;
  /** searchTools / getToolDefinition calls one execution may make */
  maxDiscoveryCalls: number;
  /** JSON text of one tool call's arguments */
  maxArgChars: number;
  /** state / workspace / session calls one execution may make */
  maxSessionCalls: number;
}

/** The wall-clock limit one execution runs under: its `timeoutMs`, else the default (checked against the maximum in sendToSandbox). */
export function executionTimeoutMs(
  input: { timeoutMs?: number | undefined },
  limits: ExecutionLimits,
): number {
  return Math.ceil(input.timeoutMs ?? limits.timeoutMs);
}
