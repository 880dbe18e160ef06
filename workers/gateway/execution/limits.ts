import type { ExecutionLimits } from "../config";

/** The wall-clock limit one execution runs under: its `timeoutMs`, else the default (checked against the maximum in sendToSandbox). */
export function executionTimeoutMs(
  input: { timeoutMs?: number | undefined },
  limits: ExecutionLimits,
): number {
  return Math.ceil(input.timeoutMs ?? limits.timeoutMs);
}
