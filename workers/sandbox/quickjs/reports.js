// What the quickjs engine says when the runtime cannot: errors as `{ name, message }` and the reports
// it writes itself (engine.js, execution.js).
/** An error value from the VM as `{ name, message, stack? }`, bounded. */
export function describe(vm, handle) {
  const dumped = vm.dump(handle);
  if (dumped && typeof dumped === "object") {
    const { name, message, stack } = /** @type {Record<string, unknown>} */ (dumped);
    return {
      name: String(name ?? "Error").slice(0, 80),
      message: String(message ?? "").slice(0, 2_000),
      ...(typeof stack === "string" ? { stack: stack.slice(0, 8_000) } : {}),
    };
  }
  return { name: "Error", message: String(dumped).slice(0, 2_000) };
}

export class EngineFault extends Error {
  /** @param {{ name: string, message: string }} error */
  constructor(error) {
    super(error.message);
    this.error = error;
  }
}

/** @param {unknown} err */
export function engineError(err) {
  if (err instanceof EngineFault) return err.error;
  if (err instanceof RangeError && /call stack/.test(errorMessage(err)))
    return {
      name: "RangeError",
      message: "Maximum call stack size exceeded (stack overflow); recurse less deeply",
    };
  return sandboxError(errorMessage(err));
}

/** @param {string} what */
export function sandboxError(what) {
  return { name: "SandboxError", message: `The sandbox failed: ${what.slice(0, 500)}` };
}

/** @param {number} timeoutMs @param {string} [while_] */
export function timeoutError(timeoutMs, while_) {
  return {
    name: "TimeoutError",
    message: `Execution timed out after ${timeoutMs} ms${while_ ? ` ${while_}` : ""}; await fewer or smaller calls, or pass a larger timeoutMs to execute`,
  };
}

/** @param {unknown} err */
export function errorMessage(err) {
  return (err instanceof Error ? err.message : String(err)).slice(0, 1_000);
}

/**
 * The runtime's report of an execution whose fuel ran out: its logs and warnings stand, its result
 * and error do not (the interrupt may have unwound the runtime's own code too, whatever it then said).
 * @param {string} text @param {{ name: string, message: string }} error
 */
export function stoppedReport(text, error) {
  try {
    const { logs, logsCut, warnings, skillRuns } = JSON.parse(text);
    return JSON.stringify({
      logs,
      logsCut,
      ...(warnings ? { warnings } : {}),
      ...(skillRuns ? { skillRuns } : {}),
      error,
    });
  } catch {
    return stopReport(error);
  }
}

/** A report this module writes when the runtime could not: no result, no logs, the error. */
export function stopReport(error) {
  return JSON.stringify({ logs: [], logsCut: false, error });
}
