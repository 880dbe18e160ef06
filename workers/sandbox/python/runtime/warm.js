// Main module of the `quickjs` engine's warm Python worker: loaded once per pool slot under an id that
// names the team, this code's version and the slot (`<team>:py-<hash>:<slot>`), and reused while
// warm. Its first execution boots CPython (~1–2 s), makes a memory snapshot and hardens the JS realm
// (harden.js); every execution then runs in a new CPython instance restored from that snapshot, with
// its own linear memory (limited to the execution's memory), its own `js` globals and timers, and is
// dropped when the execution ends. One execution runs at a time; the next instance is restored ahead,
// while the worker is idle, so an execution that finds it ready starts at once.
// Python code that calls skills does not come here: skills are modules, and a warm worker's code is
// fixed (run-sandbox.ts sends it to a fresh isolate, isolate.js).
import { WorkerEntrypoint } from "cloudflare:workers";
import { boot, snapshotOf } from "./boot.js";
import { harden } from "./harden.js";
import { skillCaller } from "./invoke-skills.js";
import { runPython } from "./run-python.js";

/** @type {Promise<Uint8Array> | undefined} */
let snapshot;
/** @type {{ memoryBytes: number, instance: Promise<Instance> } | undefined} */
let spare;
/** Executions run one after another: each waits for the one before it. */
let tail = Promise.resolve();

/**
 * @typedef {Awaited<ReturnType<typeof boot>>} Pyodide
 * @typedef {{ py: Pyodide, close(): void }} Instance
 */

export default class PythonWarm extends WorkerEntrypoint {
  /**
   * One execution; returns the report (JSON text). Never throws.
   * @param {import("../../../../shared/contract/sandbox").IsolateOptions} options
   * @param {string} code
   * @param {import("../../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
   * @param {number} memoryBytes the instance's memory limit
   */
  async run(options, code, bridge, memoryBytes) {
    const before = tail;
    /** @type {() => void} */
    let done = () => {};
    tail = before.then(() => new Promise((resolve) => (done = () => resolve(undefined))));
    let timer;
    const waited = await Promise.race([
      before.then(() => true),
      new Promise((resolve) => (timer = setTimeout(() => resolve(false), options.timeoutMs))),
    ]);
    clearTimeout(timer);
    if (!waited) {
      before.then(() => done());
      return JSON.stringify({
        logs: [],
        logsCut: false,
        error: {
          name: "TimeoutError",
          message: `Execution timed out after ${options.timeoutMs} ms waiting for the Python sandbox (other executions of this team were running); retry, or pass a larger timeoutMs`,
        },
      });
    }
    /** @type {Instance | undefined} */
    let instance;
    try {
      return await runPython(
        options,
        code,
        bridge,
        async () => {
          instance = await take(memoryBytes);
          return instance.py;
        },
        (toJson, unwrap, track) => skillCaller(bridge, {}, options.missingSkills, toJson, unwrap, track).call,
      );
    } finally {
      instance?.close();
      done();
      // After a macrotask: restoring takes the thread for ~0.15 s, and the report must go out first.
      this.ctx.waitUntil(
        tail.then(() => new Promise((go) => setTimeout(go, 0))).then(() => prepare(memoryBytes)),
      );
    }
  }
}

/** The instance restored ahead when it has this memory limit, else a new one. @param {number} memoryBytes */
async function take(memoryBytes) {
  const ready = spare?.memoryBytes === memoryBytes ? spare.instance : undefined;
  spare = undefined;
  const instance = ready ? await ready.catch(() => undefined) : undefined;
  return instance ?? restore(memoryBytes);
}

/** Restores the next instance while nothing runs. @param {number} memoryBytes */
async function prepare(memoryBytes) {
  if (spare) return;
  const instance = restore(memoryBytes);
  spare = { memoryBytes, instance };
  await instance.catch(() => {
    if (spare?.instance === instance) spare = undefined;
  });
}

/** @param {number} memoryBytes @returns {Promise<Instance>} */
async function restore(memoryBytes) {
  const bytes = await snapshotOnce();
  const realm = executionGlobals();
  const py = await boot({ snapshot: bytes, jsglobals: realm.globals, memoryBytes });
  return { py, close: realm.close };
}

/** This worker's snapshot: the first execution boots CPython, snapshots it, then hardens the realm. */
function snapshotOnce() {
  snapshot ??= (async () => {
    const py = await boot({ makeSnapshot: true, jsglobals: executionGlobals().globals });
    const bytes = snapshotOf(py);
    harden([globalThis, py._api.runtimeEnv]);
    return bytes;
  })();
  snapshot.catch(() => {
    snapshot = undefined;
  });
  return snapshot;
}

/**
 * What one instance's Python sees as `js`: the (frozen) globals, with timers of its own that stop
 * when its execution ends, and its own object to write to.
 */
function executionGlobals() {
  /** @type {Set<ReturnType<typeof setTimeout>>} */
  const timers = new Set();
  let closed = false;
  const later =
    (/** @type {typeof setTimeout} */ schedule, /** @type {boolean} */ repeat) =>
    (
      /** @type {(...args: unknown[]) => void} */ fn,
      /** @type {number | undefined} */ ms,
      /** @type {unknown[]} */ ...args
    ) => {
      if (closed || typeof fn !== "function") return 0;
      const id = schedule(() => {
        if (!repeat) timers.delete(id);
        if (!closed) fn(...args);
      }, ms);
      timers.add(id);
      return id;
    };
  const cancel = (/** @type {ReturnType<typeof setTimeout>} */ id) => {
    timers.delete(id);
    clearTimeout(id);
    clearInterval(id);
  };
  const once = later(setTimeout, false);
  const own = {
    setTimeout: once,
    setInterval: later(setInterval, true),
    setImmediate: (/** @type {(...args: unknown[]) => void} */ fn, /** @type {unknown[]} */ ...args) =>
      once(fn, 0, ...args),
    clearTimeout: cancel,
    clearInterval: cancel,
    clearImmediate: cancel,
  };
  // Defined, not assigned: the frozen globals' own setTimeout would refuse an assignment.
  const globals = Object.create(
    globalThis,
    Object.fromEntries(
      Object.entries(own).map(([key, value]) => [
        key,
        { value, writable: true, enumerable: true, configurable: true },
      ]),
    ),
  );
  return {
    globals,
    close() {
      closed = true;
      for (const id of timers) cancel(id);
    },
  };
}
