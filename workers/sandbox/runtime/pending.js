// Every call the code starts through the bridge (tools, discovery, state/workspace/session, skills)
// is tracked here, so that none is dropped without a word: when the code returns, calls it started
// but never awaited, and calls still running, are awaited (within the execution's time limit) and
// reported as warnings. A call's promise is a real Promise whose `then` notes that the code used it
// (`await`, `.then`, `Promise.all` all call it); reading any other property of it (`page.total` on a
// forgotten await) throws a TypeError that says to add `await`.
// One tracker per isolate, made by the runtime's main module and handed to each part's installer.
import { MAX_SKILL_RUNS } from "../../../shared/contract/caps";
import { clip } from "./intrinsics.js";

const PromiseCtor = Promise;
const promiseThen = Promise.prototype.then;
const reflectGet = Reflect.get;
const setPrototypeOf = Object.setPrototypeOf;
const WeakMapCtor = WeakMap;
const ProxyCtor = Proxy;
const MapCtor = Map;
const TypeErrorCtor = TypeError;
const captureStackTrace = Error.captureStackTrace;
/** Calls remembered one by one; beyond this only counted (the gateway's budgets end far sooner). */
const MAX_TRACKED = 10_000;
const MAX_WARNINGS = 5;
const now = Date.now;
/** skills.<op>() that manage skills rather than run one (invoke-skills.js) */
const MANAGEMENT = ["skills.save()", "skills.list()", "skills.get()", "skills.delete()"];

/**
 * @typedef {{ label: string, used: boolean, state: "running" | "ok" | "failed", error?: string, ms: number, done: Promise<void> }} Entry
 */

export function pendingCalls() {
  /** @type {Entry[]} */
  const entries = [];
  /** @type {WeakMap<object, Entry>} */
  const byPromise = new WeakMapCtor();

  class CallPromise extends PromiseCtor {
    static get [Symbol.species]() {
      return PromiseCtor;
    }

    /**
     * @param {((value: unknown) => unknown) | null | undefined} onFulfilled
     * @param {((reason: unknown) => unknown) | null | undefined} onRejected
     */
    // biome-ignore lint/suspicious/noThenProperty: overriding Promise#then is how a use of the call is seen
    then(onFulfilled, onRejected) {
      const entry = byPromise.get(this);
      if (entry) entry.used = true;
      return super.then(onFulfilled, onRejected);
    }
  }
  // Between CallPromise.prototype and Promise.prototype: a name Promise.prototype (or Object.prototype)
  // lacks is a property the code expected on the call's result.
  setPrototypeOf(
    CallPromise.prototype,
    new ProxyCtor(PromiseCtor.prototype, {
      get(target, prop, receiver) {
        if (typeof prop === "symbol" || prop in target) return reflectGet(target, prop, receiver);
        const entry = byPromise.get(receiver);
        throw missingAwait(entry ? entry.label : "a call", prop);
      },
    }),
  );

  /**
   * The call's promise as the code gets it, tracked.
   * @param {string} label how warnings name the call, e.g. `tools.demo.list_tickets()`
   * @param {Promise<unknown>} promise
   * @returns {Promise<unknown>}
   */
  function track(label, promise) {
    if (entries.length >= MAX_TRACKED) return promise;
    /** @type {Entry} */
    const entry = { label, used: false, state: "running", ms: 0, done: PromiseCtor.resolve() };
    const startedAt = now();
    // Where the code made the call. Awaiting a CallPromise (not a native promise) leaves a failure's
    // stack without the code's frame, so the call site's frames go under it: the error's `line`.
    const site = {};
    captureStackTrace(site, track);
    /** @type {(value: unknown) => void} */
    let resolve = () => {};
    /** @type {(reason: unknown) => void} */
    let reject = () => {};
    const call = new CallPromise((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    entry.done = promiseThen.call(
      promise,
      (/** @type {unknown} */ value) => {
        entry.state = "ok";
        entry.ms = now() - startedAt;
        resolve(value);
      },
      (/** @type {unknown} */ err) => {
        entry.state = "failed";
        entry.ms = now() - startedAt;
        entry.error = errorLine(err);
        reject(withCallSite(err, site));
      },
    );
    // A failure nobody awaited is reported as a warning, not as an unhandled rejection.
    promiseThen.call(call, undefined, () => {});
    byPromise.set(call, entry);
    entries[entries.length] = entry;
    return call;
  }

  /**
   * Waits for the calls the code left behind (never awaited, or still running) until `within`
   * settles, then says what became of each, grouped by call.
   * @param {Promise<unknown>} within resolves when the time is up
   * @returns {Promise<string[]>}
   */
  async function settle(within) {
    let seen = 0;
    /** @type {Entry[]} */
    const left = [];
    for (;;) {
      const fresh = entries.slice(seen).filter((e) => !e.used || e.state === "running");
      seen = entries.length;
      if (fresh.length === 0) break;
      for (const e of fresh) left[left.length] = e;
      const all = PromiseCtor.all(fresh.map((e) => e.done));
      if ((await PromiseCtor.race([all.then(() => "done"), within.then(() => "late")])) === "late") break;
    }
    return describe(left);
  }

  /**
   * Each skill's runs as the code saw them (its inner calls included): the gateway's ledger counts
   * a skill call when its arguments are checked, before it runs, so this is what says how it went.
   * @returns {Array<{ name: string, count: number, errors: number, ms: number }>}
   */
  function skillRuns() {
    /** @type {Map<string, { name: string, count: number, errors: number, ms: number }>} */
    const byName = new MapCtor();
    for (const e of entries) {
      if (!e.label.startsWith("skills.") || MANAGEMENT.includes(e.label) || e.state === "running") continue;
      const name = e.label.slice(0, -2);
      const run = byName.get(name) ?? { name, count: 0, errors: 0, ms: 0 };
      run.count++;
      if (e.state === "failed") run.errors++;
      run.ms += e.ms;
      byName.set(name, run);
      if (byName.size >= MAX_SKILL_RUNS) break;
    }
    return [...byName.values()];
  }

  return { track, settle, skillRuns };
}

/**
 * @param {Entry[]} left
 * @returns {string[]}
 */
function describe(left) {
  /** @type {Map<string, Entry[]>} */
  const groups = new MapCtor();
  for (const e of left) {
    const key = `${e.used ? "ran" : "not"} ${e.label}`;
    const group = groups.get(key);
    if (group) group[group.length] = e;
    else groups.set(key, [e]);
  }
  /** @type {string[]} */
  const warnings = [];
  for (const group of groups.values()) {
    if (warnings.length === MAX_WARNINGS) {
      warnings[warnings.length] = `${groups.size - MAX_WARNINGS} more calls left running or not awaited`;
      break;
    }
    warnings[warnings.length] = groupLine(group);
  }
  return warnings;
}

/** @param {Entry[]} group one call site's calls (same label, all awaited or all not) */
function groupLine(group) {
  const first = /** @type {Entry} */ (group[0]);
  const what = first.used ? "was still running when the code returned" : "was not awaited";
  if (group.length === 1) {
    const outcome =
      first.state === "ok"
        ? "it completed"
        : first.state === "failed"
          ? `it failed: ${first.error}`
          : "it had not finished when the time limit came";
    return `${first.label} ${what}; ${outcome}`;
  }
  let ok = 0;
  let running = 0;
  /** @type {string | undefined} */
  let failure;
  for (const e of group) {
    if (e.state === "ok") ok++;
    else if (e.state === "running") running++;
    else failure ??= e.error;
  }
  const failed = group.length - ok - running;
  const parts = [`${ok} completed`];
  if (failed) parts[parts.length] = `${failed} failed (first: ${failure})`;
  if (running) parts[parts.length] = `${running} had not finished when the time limit came`;
  return `${first.label} ${what} (${group.length} calls): ${parts.join(", ")}`;
}

/** A stack this long already says enough (an error rethrown through many calls). */
const MAX_SITED_STACK = 8_000;

/**
 * The error with the call site's frames under its stack (a call inside a skill gets the skill's
 * site, then the code's when the skill rethrows); anything else as it is.
 * @param {unknown} err
 * @param {{ stack?: unknown }} site
 */
export function withCallSite(err, site) {
  try {
    if (typeof err !== "object" || err === null) return err;
    const e = /** @type {{ stack?: unknown }} */ (err);
    const frames = site.stack;
    if (typeof e.stack !== "string" || e.stack.length > MAX_SITED_STACK || typeof frames !== "string")
      return err;
    const firstFrame = frames.indexOf("\n");
    if (firstFrame >= 0) e.stack = `${e.stack}${frames.slice(firstFrame)}`;
  } catch {}
  return err;
}

/** @param {unknown} err */
function errorLine(err) {
  try {
    const e = /** @type {{ name?: unknown, message?: unknown }} */ (err ?? {});
    return clip(`${String(e.name ?? "Error")}: ${String(e.message ?? err)}`, 160);
  } catch {
    return "an error that could not be described";
  }
}

/**
 * @param {string} label
 * @param {string} prop
 */
function missingAwait(label, prop) {
  const call = label.endsWith("()") ? label.slice(0, -2) : label;
  const name = clip(prop, 40);
  return new TypeErrorCtor(
    clip(
      `Read .${name} of the Promise that ${label} returns: missing await? Write (await ${call}(…)).${name}`,
      300,
    ),
  );
}
