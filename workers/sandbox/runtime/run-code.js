// One execution of agent code, for both engines: the `isolate` engine's main module (runtime.js)
// calls it with the agent's module and the parts it was loaded with; the `quickjs` engine evaluates
// this module in an interpreter before an execution takes it, then calls it with that execution's
// modules (workers/sandbox/quickjs/interpreter.js, execution.js). It captures console output, arms the guard, races the
// code against the wall-clock limit and returns one JSON text (IsolateReport in
// shared/contract/sandbox.ts); it never throws. The only way out is the bridge argument, which the
// gateway counts and checks call by call.
//
// Intrinsics come from ./intrinsics.js (bundled in at build time), captured when this module is
// evaluated, before any agent code runs, so they are the originals even if that code replaces
// globals. The optional parts (tools, session, skills with the loaded skills' modules, network) come
// in `parts` (the execution's parts.js, which the sandbox host writes: only the parts whose globals the code
// names are loaded, workers/sandbox/parts.ts). A left-out global throws NotLoadedError.
// The guard comes through `parts` too, for code with loops or functions (code without runs once
// through); without it the timer below is the only stop, and it records the timeout itself.
import { ERROR_CAPS, MAX_LOG_LINES, RESULT_WALK_CHARS, SESSION_LIMITS } from "../../../shared/contract/caps";
import { fitJson } from "../../../shared/output/fit";
import { shapeOutput } from "../../../shared/output/shape";
import { toJsonText, unwrap } from "./bridge-io.js";
import { clip, ErrorCtor, stringify } from "./intrinsics.js";
import { liveLog } from "./live-log.js";
import { pendingCalls } from "./pending.js";
import { describeError, formatLogArgs, promisePath, toJsonSafe } from "./serialize.js";

const LEVELS = ["log", "info", "warn", "error", "debug"];
const ALIASES = { trace: "debug", dir: "log", table: "log" };
const setTimer = setTimeout;
const clearTimer = clearTimeout;
const TIMED_OUT = Symbol("timed out");
let started = false;
/** @type {(stop: { name: string, message: string }, wall: boolean) => void} */
let stopNow = () => {};

// The host enforces the same caps (shared/contract/sandbox.ts).
const CAPS = { ...ERROR_CAPS, logLines: MAX_LOG_LINES };

/**
 * @typedef {import("../../../shared/contract/sandbox").IsolateOptions} IsolateOptions
 * @typedef {import("../../../shared/contract/sandbox").IsolateReport} IsolateReport
 * @typedef {import("../../../shared/contract/sandbox").SandboxBridgeApi} Bridge
 */

/**
 * Ends the running execution now with `stop` as its error, as the wall-clock timer does: the
 * `quickjs` engine calls it when the code's fuel runs out. Agent code cannot reach it
 * (compile/instrument.ts refuses `import()`; the quickjs engine refuses eval).
 * @param {{ name: string, message: string }} stop
 */
export function stopExecution(stop) {
  stopNow(stop, false);
}

/**
 * @param {IsolateOptions} options
 * @param {Bridge | undefined} bridge
 * @param {() => Promise<unknown>} agentMain the agent's module's default export
 * @param {Record<string, any>} parts the execution's parts.js
 * @returns {Promise<string>}
 */
export async function runAgentCode(options, bridge, agentMain, parts) {
  if (started) throw new ErrorCtor("runAgentCode() may be called once per isolate");
  started = true;
  const live = options.liveLogs ? liveLog(bridge) : undefined;
  const logs = captureConsole(options.maxOutputChars * 2, live?.push);
  const pending = pendingCalls();
  const toJson = (/** @type {unknown} */ value, /** @type {string} */ what) =>
    toJsonText(value, options.maxArgChars, what);
  const callSkill = parts.installSkills
    ? parts.installSkills(bridge, parts.loadedSkills, options.missingSkills, toJson, unwrap, pending.track)
    : notLoaded("skills");
  parts.installTools?.(bridge, options.maxArgChars, callSkill, pending.track);
  parts.installSession?.(bridge, unwrap, pending.track);
  parts.installNetwork?.(options.egress ? bridge : undefined);
  for (const name of parts.notLoaded) defineNotLoaded(name);
  parts.configureGuard?.(options.timeoutMs, options.maxSteps);
  /** @type {{ name: string, message: string } | null} the timeout, for code without a guard */
  let expired = null;
  const guardState = () => parts.guardState?.() ?? expired;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const timeout = new Promise((resolve) => {
    stopNow = (/** @type {{ name: string, message: string }} */ stop, /** @type {boolean} */ wall) => {
      if (expired) return;
      clearTimer(timer);
      parts.tripTimeout?.(undefined, wall ? undefined : stop);
      expired = stop;
      resolve(TIMED_OUT);
    };
    timer = setTimer(
      () =>
        stopNow(
          {
            name: "TimeoutError",
            message: `Execution timed out after ${options.timeoutMs} ms; await fewer or smaller calls, or pass a larger timeoutMs to execute`,
          },
          true,
        ),
      options.timeoutMs,
    );
  });
  /** @type {unknown} */
  let value;
  /** @type {IsolateReport["error"]} */
  let error;
  try {
    value = await Promise.race([agentMain(), timeout]);
    const stopped = guardState();
    if (stopped) error = { ...stopped };
  } catch (err) {
    const stopped = guardState();
    error = stopped ? { ...stopped } : clipError(describeError(err), parts.thrownLine?.(err));
  }
  // What the code started and left behind is awaited before anything is reported.
  const warnings = await pending.settle(timeout);
  clearTimer(timer);
  await live?.flush();
  /** @type {unknown} */
  let result;
  let lowerBound = false;
  if (!error && value !== undefined) {
    const safe = toJsonSafe(value, RESULT_WALK_CHARS);
    if (safe.promise) error = unawaitedInResult(promisePath(value, "result"));
    else {
      result = safe.value;
      lowerBound = safe.truncated;
    }
  }
  const room = options.maxOutputChars - (error?.stack?.length ?? 0);
  const shaped = shapeOutput(
    { result, logs: logs.lines, logsDropped: logs.dropped(), lowerBound },
    Math.max(room, 0),
    parts.cutOutsidePii,
  );
  const skillRuns = pending.skillRuns();
  const whole = shaped.truncation && options.keepWholeResult && !lowerBound ? stringify(result) : undefined;
  /** @type {IsolateReport} */
  const report = {
    ...(shaped.resultJson === undefined ? {} : { resultJson: shaped.resultJson }),
    ...(whole !== undefined && whole.length <= SESSION_LIMITS.maxFileBytes ? { wholeJson: whole } : {}),
    ...(skillRuns.length ? { skillRuns } : {}),
    ...(shaped.truncation ? { truncation: shaped.truncation } : {}),
    logs: shaped.logs,
    logsCut: shaped.logsCut,
    ...(warnings.length ? { warnings } : {}),
    ...(error ? { error } : {}),
  };
  return stringify(report);
}

/** @param {string | undefined} path where the returned value holds a Promise */
function unawaitedInResult(path) {
  const where = path === undefined ? "the result holds a Promise" : `${clip(path, 120)} is a Promise`;
  return {
    name: "TypeError",
    message: `${where}: missing await? Await each call before returning its value`,
  };
}

/**
 * The error within CAPS, `data` cut to fit without breaking its JSON; `line`: where the code threw
 * it (the sandbox host prefers the line its stack gives).
 * @param {{ name: string, message: string, stack?: string, data?: unknown }} error
 * @param {number | undefined} line
 */
function clipError(error, line) {
  const data = error.data === undefined ? undefined : fitJson(error.data, CAPS.data, { path: "error.data" });
  return {
    name: clip(error.name, CAPS.name),
    message: clip(error.message, CAPS.message),
    ...(error.stack === undefined ? {} : { stack: clip(error.stack, CAPS.stack) }),
    ...(line === undefined ? {} : { line }),
    ...(data && data.json.length <= CAPS.data ? { data: data.value } : {}),
  };
}

/**
 * @param {number} maxChars collected beyond this are counted, not kept
 * @param {((line: string) => void) | undefined} follow also gets each kept line (live logs)
 */
function captureConsole(maxChars, follow) {
  /** @type {string[]} */
  const lines = [];
  let chars = 0;
  let dropped = 0;
  const target = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis.console));
  /** @param {string} level */
  const writer =
    (level) =>
    (/** @type {unknown[]} */ ...args) => {
      if (chars > maxChars || lines.length >= CAPS.logLines) {
        dropped++;
        return;
      }
      const line = clip(`[${level}] ${formatLogArgs(args, maxChars)}`, maxChars);
      chars += line.length;
      lines[lines.length] = line;
      follow?.(line);
    };
  for (const level of LEVELS) target[level] = writer(level);
  for (const [name, level] of Object.entries(ALIASES)) target[name] = writer(level);
  target.assert = (/** @type {unknown} */ ok, /** @type {unknown[]} */ ...args) => {
    if (!ok) writer("error")("Assertion failed", ...args);
  };
  return { lines, dropped: () => dropped };
}

/**
 * `globalThis[name]` of a part the sandbox host left out: reading it throws a NotLoadedError that says why.
 * @param {string} name
 */
function defineNotLoaded(name) {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get: () => {
      throw notLoadedError(name);
    },
  });
}

/** @param {string} name */
function notLoaded(name) {
  return async () => {
    throw notLoadedError(name);
  };
}

/** @param {string} name */
function notLoadedError(name) {
  const err = new ErrorCtor(
    `${name} is not loaded in this execution: the sandbox sets up ${name} only for code that contains the word "${name}" (a name built at run time is not seen); write ${name} in the code`,
  );
  err.name = "NotLoadedError";
  return err;
}
