// Main module of every sandbox isolate. The host loads it with the agent's compiled code (agent.js)
// and calls `run(options, bridge)` once over RPC. It captures console output, arms the guard, races
// the code against the wall-clock limit and returns one JSON text (IsolateReport in
// shared/contract/sandbox.ts); it never throws. The isolate's env is empty: the only way out is the
// bridge argument, which the gateway counts and checks call by call.
//
// Intrinsics come from ./intrinsics.js (bundled in at build time), captured when the isolate starts,
// before any agent code runs, so they are the originals even if that code replaces globals. The
// optional parts (tools, session, skills with the loaded skills' modules, network) come through
// ./parts.js, which the host writes for each execution: only the parts whose globals the code names
// are loaded (workers/sandbox/parts.ts), since every byte of module source is compiled again in each
// fresh isolate. A left-out global throws NotLoadedError.
// The guard comes through ./parts.js too, for code with loops or functions (code without runs once
// through); without it the timer below is the only stop, and it records the timeout itself.
import { WorkerEntrypoint } from "cloudflare:workers";
import run from "./agent.js";
import { toJsonText, unwrap } from "./bridge-io.js";
import { clip, ErrorCtor, stringify } from "./intrinsics.js";
import * as parts from "./parts.js";
import { describeError, formatLogArgs, toJsonSafe } from "./serialize.js";

const LEVELS = ["log", "info", "warn", "error", "debug"];
const ALIASES = { trace: "debug", dir: "log", table: "log" };
const setTimer = setTimeout;
const clearTimer = clearTimeout;
const TIMED_OUT = Symbol("timed out");
let started = false;
// Kept in step with shared/contract/sandbox.ts (ERROR_CAPS, MAX_LOG_LINES); the host enforces them.
const CAPS = { name: 200, message: 4_000, stack: 8_000, logLines: 10_000 };

/**
 * @typedef {import("../../../shared/contract/sandbox").IsolateOptions} IsolateOptions
 * @typedef {import("../../../shared/contract/sandbox").IsolateReport} IsolateReport
 * @typedef {import("../../../shared/contract/sandbox").SandboxBridgeApi} Bridge
 */

export default class Sandbox extends WorkerEntrypoint {
  /**
   * @param {IsolateOptions} options
   * @param {Bridge | undefined} bridge
   * @returns {Promise<string>}
   */
  async run(options, bridge) {
    if (started) throw new ErrorCtor("run() may be called once per isolate");
    started = true;
    const logs = captureConsole(options.maxOutputChars * 2);
    const toJson = (/** @type {unknown} */ value, /** @type {string} */ what) =>
      toJsonText(value, options.maxArgChars, what);
    const callSkill = parts.installSkills
      ? parts.installSkills(bridge, parts.loadedSkills, options.missingSkills, toJson, unwrap)
      : notLoaded("skills");
    parts.installTools?.(bridge, options.maxArgChars, callSkill);
    parts.installSession?.(bridge, unwrap);
    parts.installNetwork?.(options.egress ? bridge : undefined);
    for (const name of parts.notLoaded) defineNotLoaded(name);
    parts.configureGuard?.(options.timeoutMs, options.maxSteps);
    /** @type {{ name: string, message: string } | null} the timeout, for code without a guard */
    let expired = null;
    const guardState = () => parts.guardState?.() ?? expired;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimer(() => {
        parts.tripTimeout?.(undefined);
        expired = { name: "TimeoutError", message: `Execution timed out after ${options.timeoutMs} ms` };
        resolve(TIMED_OUT);
      }, options.timeoutMs);
    });
    /** @type {IsolateReport} */
    const report = { resultTruncated: false, logs: logs.lines, logsDropped: 0 };
    try {
      const value = await Promise.race([run(), timeout]);
      const stopped = guardState();
      if (stopped) report.error = { ...stopped };
      else if (value !== undefined) Object.assign(report, resultOf(value, options.maxOutputChars * 2));
    } catch (err) {
      const stopped = guardState();
      report.error = stopped ? { ...stopped } : clipError(describeError(err));
    } finally {
      clearTimer(timer);
    }
    report.logsDropped = logs.dropped();
    return stringify(report);
  }
}

/**
 * @param {unknown} value
 * @param {number} maxChars
 */
function resultOf(value, maxChars) {
  const safe = toJsonSafe(value, maxChars);
  const json = stringify(safe.value) ?? "null";
  if (json.length <= maxChars) return { resultJson: json, resultTruncated: safe.truncated };
  return { resultJson: clip(json, maxChars), resultTruncated: true };
}

/** @param {{ name: string, message: string, stack?: string }} error */
function clipError(error) {
  const out = { name: clip(error.name, CAPS.name), message: clip(error.message, CAPS.message) };
  return error.stack === undefined ? out : { ...out, stack: clip(error.stack, CAPS.stack) };
}

/** @param {number} maxChars collected beyond this are counted, not kept */
function captureConsole(maxChars) {
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
    };
  for (const level of LEVELS) target[level] = writer(level);
  for (const [name, level] of Object.entries(ALIASES)) target[name] = writer(level);
  target.assert = (/** @type {unknown} */ ok, /** @type {unknown[]} */ ...args) => {
    if (!ok) writer("error")("Assertion failed", ...args);
  };
  return { lines, dropped: () => dropped };
}

/**
 * `globalThis[name]` of a part the host left out: reading it throws a NotLoadedError that says why.
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
