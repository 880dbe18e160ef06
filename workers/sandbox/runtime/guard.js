// Execution guard. The compiler inserts a call to `tick(line)` at the top of every loop body and
// every function body of the agent's code, under a random per-execution local name the code cannot
// know. Local workerd ignores `limits.cpuMs`, so this is what stops `while (true) {}` there; on
// Cloudflare it is a second fence behind cpuMs. Once tripped it stays tripped: every later loop
// iteration or function entry throws again, so `try/catch` around a loop cannot swallow the stop.

const now = Date.now;
const ErrorCtor = Error;
const CHECK_EVERY = 256;

let deadline = Number.POSITIVE_INFINITY;
let timeoutMs = 0;
let maxSteps = Number.POSITIVE_INFINITY;
let steps = 0;
let nextCheck = CHECK_EVERY;
let configured = false;
/** @type {{ name: string, message: string, line: number | undefined } | null} */
let tripped = null;
/** @type {Error | null} */
let trippedError = null;

/**
 * Arms the guard. Callable once per isolate, by the runtime, before the agent's code starts.
 * @param {number} limitMs wall-clock budget of the execution
 * @param {number} stepLimit loop iterations + function entries allowed
 */
export function configureGuard(limitMs, stepLimit) {
  if (configured) throw new ErrorCtor("The execution guard is already configured");
  configured = true;
  timeoutMs = limitMs;
  deadline = now() + limitMs;
  maxSteps = stepLimit;
}

/**
 * Records that the execution ran out of time by a route that does not pass through `tick`
 * (the runtime's own wall-clock timer), so later ticks stop as well.
 * @param {number | undefined} line
 */
export function tripTimeout(line) {
  if (tripped === null) trip("TimeoutError", `Execution timed out after ${timeoutMs} ms`, line);
}

/** @returns {{ name: string, message: string, line: number | undefined } | null} */
export function guardState() {
  return tripped;
}

/** @param {number} line */
export function tick(line) {
  if (trippedError !== null) throw trippedError;
  steps++;
  if (steps < nextCheck) return;
  nextCheck = steps + CHECK_EVERY;
  if (steps > maxSteps) {
    trip("TimeoutError", `Execution stopped after ${maxSteps} loop iterations and function calls`, line);
  } else if (now() > deadline) {
    trip("TimeoutError", `Execution timed out after ${timeoutMs} ms (CPU-bound code)`, line);
  }
  if (trippedError !== null) throw trippedError;
}

/**
 * @param {string} name
 * @param {string} message
 * @param {number | undefined} line
 */
function trip(name, message, line) {
  const where = line === undefined ? "" : ` at line ${line}`;
  tripped = { name, message: message + where, line };
  trippedError = new ErrorCtor(tripped.message);
  trippedError.name = name;
}
