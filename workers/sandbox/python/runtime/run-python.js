// One Python execution in an interpreter boot.js made: runs the driver, collects logs, and returns one
// JSON text shaped like the TypeScript runtime's report (IsolateReport in shared/contract/sandbox.ts).
// Never throws. Used by isolate.js and warm.js.
import { toJsonText, unwrap } from "./bridge-io.js";
import { makeBridgeFunctions } from "./py-bridge.js";
import {
  cutOutsidePii,
  ERROR_CAPS,
  fitJson,
  liveLog,
  MAX_LOG_LINES,
  MAX_SKILL_RUNS,
  pendingCalls,
  RESULT_WALK_CHARS,
  SESSION_LIMITS,
  shapeOutput,
  WARNING_CAPS,
} from "./python-support.js";

/**
 * How long past its timeout the Python side may take to answer: its guard stops computation at the
 * timeout, but an await that never finishes (a future nobody resolves, a call still running) is
 * stopped here; less than the sandbox host's grace (HOST_GRACE_MS), so the answer is this one.
 */
export const RUN_GRACE_MS = 1_000;

/**
 * @typedef {Awaited<ReturnType<typeof import("./boot.js").boot>>} Pyodide
 * @typedef {(name: string, args: unknown) => Promise<unknown>} CallSkill
 * @typedef {{ resultJson?: string, result?: unknown, warnings?: string[], skillRuns?: Array<{ name: string, count: number, errors: number, ms: number }>, error?: { name: string, message: string, stack?: string, line?: number, column?: number, data?: unknown } }} Ran
 * @typedef {(toJson: (value: unknown, what: string) => string, unwrap: (res: import("../../../../shared/contract/sandbox").BridgeResult) => unknown, track: (label: string, call: Promise<unknown>) => Promise<unknown>) => CallSkill} SkillsFor
 */

/**
 * @param {import("../../../../shared/contract/sandbox").IsolateOptions} options
 * @param {string} code
 * @param {import("../../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
 * @param {() => Promise<Pyodide>} start gives the interpreter this execution runs in
 * @param {SkillsFor} skillsFor sets up the (TypeScript) skills Python code calls
 * @param {(clean: boolean) => void} [ended] told whether the driver answered with a report of its own
 *   (false: the interpreter failed, the answer came late, or the report was not the driver's)
 * @returns {Promise<string>}
 */
export async function runPython(options, code, bridge, start, skillsFor, ended) {
  const logs = [];
  let chars = 0;
  let dropped = 0;
  const live = options.liveLogs ? liveLog(bridge) : undefined;
  const log = (/** @type {string} */ level, /** @type {string} */ text) => {
    if (chars > options.maxOutputChars * 2 || logs.length >= MAX_LOG_LINES) {
      dropped++;
      return;
    }
    const line = `[${level}] ${text}`.slice(0, options.maxOutputChars * 2);
    chars += line.length;
    logs.push(line);
    live?.push(line);
  };
  const pending = pendingCalls();
  /** @type {Ran} */
  let ran;
  let clean = false;
  try {
    const toJson = (/** @type {unknown} */ value, /** @type {string} */ what) =>
      toJsonText(value, options.maxArgChars, what);
    const callSkill = skillsFor(toJson, unwrap, pending.track);
    const py = await start();
    py.setStdout({ batched: (/** @type {string} */ s) => log("log", s) });
    py.setStderr({ batched: (/** @type {string} */ s) => log("error", s) });
    const driver = py.pyimport("_sandbox");
    const fatal = fatalError(py);
    fatal.catch(() => {});
    const running = Promise.resolve(
      driver.run(
        code,
        py.toPy({
          timeoutMs: options.timeoutMs,
          maxSteps: options.maxSteps,
          maxChars: RESULT_WALK_CHARS,
          maxArgChars: options.maxArgChars,
          skills: options.pythonSkills ?? [],
        }),
        makeBridgeFunctions(bridge, callSkill),
        log,
      ),
    );
    running.catch(() => {});
    let timer;
    const late = new Promise((resolve) => {
      timer = setTimeout(() => resolve(LATE), options.timeoutMs + RUN_GRACE_MS);
    });
    const report = await Promise.race([running, late, fatal]).finally(() => clearTimeout(timer));
    ran = report === LATE ? { error: timedOut(options.timeoutMs) } : readReport(report);
    clean = report !== LATE && ran !== NOT_A_REPORT;
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 1_000);
    const error = /maximum call stack/i.test(message)
      ? { name: "RecursionError", message: `Python recursion exhausted the stack (${message})` }
      : { name: "SandboxError", message: `The Python runtime failed: ${message}` };
    ran = { error };
  }
  ended?.(clean);
  await live?.flush();
  const shaped = shapeOutput(
    { result: ran.result, logs, logsDropped: dropped },
    Math.max(0, options.maxOutputChars - (ran.error?.stack?.length ?? 0)),
    options.piiSafeCuts ? cutOutsidePii : undefined,
  );
  const warnings = [...(ran.warnings ?? []), ...(await pending.settle(Promise.resolve()))];
  // Python skills' runs, counted by the driver; TypeScript skills', by the JavaScript runtime.
  const skillRuns = [...(ran.skillRuns ?? []), ...pending.skillRuns()].slice(0, MAX_SKILL_RUNS);
  const keepWhole =
    shaped.truncation && options.keepWholeResult && ran.resultJson.length <= SESSION_LIMITS.maxFileBytes;
  return JSON.stringify({
    ...(shaped.resultJson === undefined ? {} : { resultJson: shaped.resultJson }),
    ...(keepWhole ? { wholeJson: ran.resultJson } : {}),
    ...(shaped.truncation ? { truncation: shaped.truncation } : {}),
    logs: shaped.logs,
    logsCut: shaped.logsCut,
    ...(warnings.length ? { warnings: warnings.slice(0, WARNING_CAPS.count) } : {}),
    ...(skillRuns.length ? { skillRuns } : {}),
    ...(ran.error ? { error: fitData(ran.error) } : {}),
  });
}

const LATE = Symbol("late");
/** @type {WeakMap<object, (e: unknown) => unknown>} */
const pyodideFatal = new WeakMap();

/**
 * The error with its `data` (the exception's own attributes) cut to ERROR_CAPS.data without breaking
 * its JSON, as the TypeScript runtime cuts an Error's fields.
 * @param {NonNullable<Ran["error"]>} error
 */
function fitData(error) {
  const { data, ...rest } = error;
  if (data === undefined) return rest;
  const fitted = fitJson(data, ERROR_CAPS.data, { path: "error.data" });
  return fitted.json.length <= ERROR_CAPS.data ? { ...rest, data: fitted.value } : rest;
}

/**
 * Rejects with the cause when the interpreter fails fatally (a wasm stack overflow, say): pyodide
 * then drops what was running, and the promise of the call into Python would never settle.
 * @param {Pyodide} py
 * @returns {Promise<never>}
 */
function fatalError(py) {
  const api = /** @type {{ fatal_error(e: unknown): unknown }} */ (py._api);
  // pyodide's own, not the wrapper an earlier execution in the same instance (warm.js) put there
  const original = pyodideFatal.get(api) ?? api.fatal_error;
  pyodideFatal.set(api, original);
  return new Promise((_, reject) => {
    api.fatal_error = (e) => {
      reject(e);
      return original(e);
    };
  });
}

/** @param {number} timeoutMs */
function timedOut(timeoutMs) {
  return {
    name: "TimeoutError",
    message: `Execution timed out after ${timeoutMs} ms; await fewer or smaller calls, or pass a larger timeoutMs to execute`,
  };
}

/**
 * The driver's report, checked, with its result parsed: the code runs in the same interpreter and may
 * have broken what the driver uses, so a report of another shape is said to be the runtime's failure.
 * @param {unknown} text
 * @returns {Ran}
 */
function readReport(text) {
  try {
    const ran = typeof text === "string" ? JSON.parse(text) : undefined;
    const { resultJson, warnings, skillRuns, error } = ran ?? {};
    const isText = (/** @type {unknown} */ v) => typeof v === "string";
    const isRun = (/** @type {Record<string, unknown>} */ r) =>
      isText(r?.name) && ["count", "errors", "ms"].every((k) => Number.isInteger(r[k]));
    const fields = error ?? {};
    if (
      typeof ran === "object" &&
      !Array.isArray(ran) &&
      (resultJson === undefined || isText(resultJson)) &&
      (warnings === undefined || (Array.isArray(warnings) && warnings.every(isText))) &&
      (skillRuns === undefined || (Array.isArray(skillRuns) && skillRuns.every(isRun))) &&
      (error === undefined || (isText(fields.name) && isText(fields.message))) &&
      (fields.stack === undefined || isText(fields.stack)) &&
      (fields.data === undefined ||
        (typeof fields.data === "object" && fields.data !== null && !Array.isArray(fields.data))) &&
      ["line", "column"].every((k) => fields[k] === undefined || Number.isInteger(fields[k]))
    ) {
      return { ...ran, ...(resultJson === undefined ? {} : { result: JSON.parse(resultJson) }) };
    }
  } catch {
    // not JSON: said below
  }
  return NOT_A_REPORT;
}

/** @type {Ran} */
const NOT_A_REPORT = {
  error: {
    name: "SandboxError",
    message:
      "The Python runtime's report was not what it writes (did the code replace something the runtime uses?)",
  },
};
