import { cpuBudgetError, memoryLimitError } from "../../shared/contract/engine";
import type { IsolateReport, SandboxRequest } from "../../shared/contract/sandbox";

/**
 * QuickJS's names for its limits, as the `isolate` engine and the contract name them. An
 * `interrupted` error is the fuel running out (QuickJS makes it uncatchable, so it reaches the
 * runtime only when the code's stack was unwound by it).
 */
export function quickjsError(
  error: NonNullable<IsolateReport["error"]>,
  request: SandboxRequest,
  memoryBytes: number,
): NonNullable<IsolateReport["error"]> {
  if (error.name !== "InternalError") return error;
  if (error.message === "interrupted") return cpuBudgetError(request.isolate.timeoutMs, request.cpuMs);
  if (error.message.startsWith("out of memory") || error.message === "string too long")
    return { ...error, ...memoryLimitError(memoryBytes) };
  if (error.message.startsWith("stack overflow"))
    return {
      ...error,
      name: "RangeError",
      message: "Maximum call stack size exceeded (stack overflow); recurse less deeply",
    };
  return error;
}
