// Execution guard. The compiler inserts a call to `tick(line)` at the top of every loop body and
// every function body of the agent's code, under a random per-execution local name the code cannot
// know. Local workerd ignores `limits.cpuMs`, so this is what stops `while (true) {}` there; on
// Cloudflare it is a second fence behind cpuMs. Once tripped it stays tripped: every later loop
// iteration or function entry throws again, so `try/catch` around a loop cannot swallow the stop.
// It also remembers the line of the code's last `throw` (`thrown`).

const now = Date.now;
const ErrorCtor = Error;
const CHECK_EVERY = 256;
/** where the clock moves (local workerd), steps so slow that CHECK_EVERY of them take longer are checked more often */
const CHECK_MS = 10;

let deadline = Number.POSITIVE_INFINITY;
let timeoutMs = 0;
let maxSteps = Number.POSITIVE_INFINITY;
let steps = 0;
let every = 1;
let nextCheck = every;
let checkedAt = 0;
let configured = false;
/** @type {{ name: string, message: string, line: number | undefined } | null} */
let tripped = null;
// Made up front: at the stack limit there may be no room left to construct an Error.
const stopError = new ErrorCtor("Execution stopped");
stopError.name = "TimeoutError";

/**
 * Arms the guard. Callable once per isolate, by the runtime, before the agent's code starts.
 * @param {number} limitMs wall-clock budget of the execution
 * @param {number} stepLimit loop iterations + function entries allowed
 */
export function configureGuard(limitMs, stepLimit) {
  if (configured) throw new ErrorCtor("The execution guard is already configured");
  configured = true;
  timeoutMs = limitMs;
  checkedAt = now();
  deadline = checkedAt + limitMs;
  maxSteps = stepLimit;
}

/**
 * Records that the execution was stopped by a route that does not pass through `tick` (the
 * runtime's own wall-clock timer, the quickjs engine's fuel, the isolate engine's memory meter), so
 * later ticks stop as well.
 * @param {number | undefined} line
 * @param {{ name?: string, message: string }} [stop] why, when not the wall clock
 */
export function tripTimeout(line, stop) {
  if (tripped === null && stop) trip(stop.message, line, undefined, stop.name);
  else if (tripped === null) {
    trip(
      `Execution timed out after ${timeoutMs} ms`,
      line,
      "await fewer or smaller calls, or pass a larger timeoutMs to execute",
    );
  }
}

/** The value last thrown by a `throw` of the agent's code or a skill's, and its line (agent code only). */
/** @type {unknown} */
let lastThrown;
/** @type {number | undefined} */
let lastThrownLine;

/**
 * The compiler passes each thrown value but a `new …` one through here (`throw thrown(line, value)`),
 * so that a thrown string or plain object, which has no stack, keeps its line.
 * @param {number | undefined} line
 * @param {unknown} value
 */
export function thrown(line, value) {
  lastThrown = value;
  lastThrownLine = line;
  return value;
}

/**
 * The line of the `throw` that last threw `value`, if the code threw it that way.
 * @param {unknown} value
 */
export function thrownLine(value) {
  return Object.is(value, lastThrown) ? lastThrownLine : undefined;
}

/** @returns {{ name: string, message: string, line: number | undefined } | null} */
export function guardState() {
  return tripped;
}

/** @param {number} line */
export function tick(line) {
  if (tripped !== null) throw stopError;
  if (++steps < nextCheck) return;
  check(line);
}

/**
 * Runs every `every` ticks: from the first tick, twice as far apart after a check that came within
 * CHECK_MS of the last, up to CHECK_EVERY, and four times nearer after one that did not (steps that
 * each hold a long native call), so code slow from its start misses its deadline by about a step;
 * code that turns slow later, by at most CHECK_EVERY steps once. Near the stack limit this may itself
 * fail with a RangeError before it finishes; `nextCheck` only moves once a check completes, so the
 * next tick tries again.
 * @param {number} line
 */
function check(line) {
  const at = now();
  if (steps > maxSteps) {
    trip(
      `Execution stopped after ${maxSteps} loop iterations and function calls`,
      line,
      "end loops sooner, or do less per execution",
    );
  } else if (at > deadline) {
    trip(
      `Execution timed out after ${timeoutMs} ms (CPU-bound code)`,
      line,
      "do less computation per execution, or pass a larger timeoutMs to execute",
    );
  }
  const slow = at - checkedAt > CHECK_MS;
  every = slow ? every >> 2 || 1 : every < CHECK_EVERY ? every * 2 : CHECK_EVERY;
  checkedAt = at;
  nextCheck = steps + every;
  if (tripped !== null) throw stopError;
}

/**
 * @param {string} message
 * @param {number | undefined} line
 * @param {string} [fix] what the code can change
 * @param {string} [name] the error's name
 */
function trip(message, line, fix, name = "TimeoutError") {
  const where = line === undefined ? "" : ` at line ${line}`;
  tripped = { name, message: message + where + (fix ? `; ${fix}` : ""), line };
  stopError.name = name;
  stopError.message = tripped.message;
}
