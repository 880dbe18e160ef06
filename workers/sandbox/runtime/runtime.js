// Main module of every sandbox isolate. The gateway loads it with the agent's compiled code
// (agent.js) and calls `run()` once over RPC. It captures console output, arms the guard, races
// the code against the wall-clock limit and returns JSON-safe data; it never throws.
import { WorkerEntrypoint } from "cloudflare:workers";
import run from "./agent.js";
import { configureGuard, guardState, tripTimeout } from "./guard.js";
import { describeError, formatLogArgs, toJsonSafe } from "./serialize.js";
import { installTools } from "./tools.js";

const LEVELS = ["log", "info", "warn", "error", "debug"];
const ALIASES = { trace: "debug", dir: "log", table: "log" };
const setTimer = setTimeout;
const clearTimer = clearTimeout;
const nativeFetch = globalThis.fetch;
const TIMED_OUT = Symbol("timed out");

/**
 * @typedef {{ timeoutMs: number, maxSteps: number, maxOutputChars: number, maxToolCalls: number }} RunOptions
 * @typedef {{ name: string, message: string, stack?: string, line?: number }} RunError
 * @typedef {{ result?: unknown, hasResult: boolean, resultTruncated: boolean, logs: string[],
 *   logsDropped: number, error?: RunError, calls: Array<{ name: string, ms: number, ok: boolean }> }} RunOutcome
 */

/** @extends {WorkerEntrypoint<{ TOOLS?: import("./tools.js").Bridge }>} */
export default class Sandbox extends WorkerEntrypoint {
  /**
   * @param {RunOptions} options
   * @returns {Promise<RunOutcome>}
   */
  async run(options) {
    const logs = captureConsole(options.maxOutputChars * 2);
    installNetworkNotice();
    const { calls } = installTools(this.env.TOOLS, options.maxToolCalls);
    configureGuard(options.timeoutMs, options.maxSteps);
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimer(() => {
        tripTimeout(undefined);
        resolve(TIMED_OUT);
      }, options.timeoutMs);
    });
    /** @type {RunOutcome} */
    const outcome = { hasResult: false, resultTruncated: false, logs: logs.lines, logsDropped: 0, calls };
    try {
      const value = await Promise.race([run(), timeout]);
      const stopped = guardState();
      if (stopped) {
        outcome.error = { ...stopped };
      } else if (value !== undefined) {
        const safe = toJsonSafe(value, options.maxOutputChars * 2);
        outcome.result = safe.value;
        outcome.hasResult = true;
        outcome.resultTruncated = safe.truncated;
      }
    } catch (err) {
      const stopped = guardState();
      outcome.error = stopped ? { ...stopped } : describeError(err);
    } finally {
      clearTimer(timer);
    }
    outcome.logsDropped = logs.dropped();
    return outcome;
  }
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
      if (chars > maxChars) {
        dropped++;
        return;
      }
      const line = `[${level}] ${formatLogArgs(args, maxChars)}`;
      chars += line.length;
      lines.push(line);
    };
  for (const level of LEVELS) target[level] = writer(level);
  for (const [name, level] of Object.entries(ALIASES)) target[name] = writer(level);
  target.assert = (/** @type {unknown} */ ok, /** @type {unknown[]} */ ...args) => {
    if (!ok) writer("error")("Assertion failed", ...args);
  };
  return { lines, dropped: () => dropped };
}

/**
 * The isolate is loaded with `globalOutbound: null` (or the team's EgressGate), which is what
 * decides what the network allows. This only makes the refusal say what happened.
 */
function installNetworkNotice() {
  globalThis.fetch = async (input, init) => {
    try {
      return await nativeFetch(input, init);
    } catch (err) {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const reason = err instanceof Error ? err.message : String(err);
      const blocked = /not permitted to access the internet/i.test(reason);
      throw new TypeError(
        blocked
          ? `fetch(${url}) failed: this sandbox has no network access (${reason})`
          : `fetch(${url}) failed: ${reason}`,
      );
    }
  };
}
