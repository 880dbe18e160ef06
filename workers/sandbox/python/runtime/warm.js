// Main module of the `quickjs` engine's warm Python worker: loaded once per pool slot under an id that
// names the team, this code's version and the slot (`<team>:py-<hash>:<slot>`), and reused while
// warm. Its first execution boots CPython (~1–2 s), makes a memory snapshot and hardens the JS realm
// (harden.js); every execution then runs in a new CPython instance restored from that snapshot, with
// its own `js` globals and timers, and is closed when the execution ends (gate.js: its entries
// refuse). The worker has one linear memory (limited to the execution's memory), which each instance
// restores the snapshot into once the one before is closed: one instance and one memory at a time,
// within the isolate's 128 MB on Cloudflare (docs/security.md "Memory on each engine"). One execution
// runs at a time; the next instance is restored ahead into the memory, in the waitUntil of the
// execution before, so an execution that finds it ready starts at once.
// Each execution is a request of its own, and a request can end without running its `finally` (the
// runtime cancels one it takes for hung, or whose caller went away); a promise it made then never
// settles. So what this module keeps between executions are values, never promises: the snapshot's
// pages, the memory and the instance in it (closed, or restored ahead and untouched), and who holds
// the turn until when.
// Python code that calls TypeScript skills does not come here: they are modules, and a warm worker's
// code is fixed (the gateway places it in a fresh isolate, isolate.js). Python skills come as data
// (options.pythonSkills), run by the interpreter (_sandbox_skills.py).
import { WorkerEntrypoint } from "cloudflare:workers";
import { boot, bootBytes, closeChannels, snapshotOf } from "./boot.js";
import { harden } from "./harden.js";
import { compactImage } from "./image.js";
import { skillCaller } from "./invoke-skills.js";
import { RUN_GRACE_MS, runPython } from "./run-python.js";

/** How long restoring an instance may hold the turn (~0.15 s, seconds on a starved machine). */
const RESTORE_TURN_MS = 15_000;
/** How long booting CPython and making the snapshot may (the first execution; ~1.5–3 s, more when starved). */
const SNAPSHOT_TURN_MS = 60_000;

/** @type {import("./image.js").Image | undefined} its non-zero pages (image.js) */
let snapshot;
const WASM_PAGE = 65_536;
/**
 * The worker's one linear memory (its maximum in pages), which each instance restores the snapshot
 * into, and the instance in it: closed before the next one is given the memory (`closable`).
 * @type {{ maximum: number, memory: WebAssembly.Memory } | undefined}
 */
let memory;
/** @type {{ close(): void } | undefined} */
let holder;
/** @type {{ memoryBytes: number, instance: Instance } | undefined} restored ahead, in the memory */
let spare;

/**
 * Whose turn it is (an execution, or restoring the next instance): until when at the latest, and a
 * promise its request settles when it gives the turn back.
 * @type {Turn | undefined}
 */
let turn;

/**
 * @typedef {Awaited<ReturnType<typeof boot>>} Pyodide
 * @typedef {{ py: Pyodide, close(): void }} Instance
 * @typedef {{ until: number, held: Promise<void>, giveBack(): void }} Turn
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
    const readyMs = snapshot ? RESTORE_TURN_MS : SNAPSHOT_TURN_MS;
    const mine = await takeTurn(Date.now() + options.timeoutMs, readyMs + options.timeoutMs + RUN_GRACE_MS);
    if (!mine) {
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
      mine.giveBack();
      // After a macrotask: restoring takes the thread for ~0.15 s, and the report must go out first.
      this.ctx.waitUntil(new Promise((go) => setTimeout(go, 0)).then(() => prepare(memoryBytes)));
    }
  }
}

/**
 * Waits for the turn until `deadline` (undefined: not given by then) and holds it for at most
 * `holdMs`. A turn whose request ended without giving it back is over at once when that shows (a
 * promise of an ended request rejects when awaited), else at its `until`.
 * @param {number} deadline
 * @param {number} holdMs
 * @returns {Promise<Turn | undefined>}
 */
async function takeTurn(deadline, holdMs) {
  while (turn && turn.until > Date.now()) {
    if (Date.now() >= deadline) return undefined;
    const current = turn;
    let timer;
    const ended = await Promise.race([
      (async () => {
        try {
          await current.held;
          return false;
        } catch {
          return true;
        }
      })(),
      new Promise((resolve) => {
        timer = setTimeout(() => resolve(false), Math.max(1, Math.min(deadline, current.until) - Date.now()));
      }),
    ]);
    clearTimeout(timer);
    if (ended && turn === current) turn = undefined;
  }
  /** @type {() => void} */
  let giveBack = () => {};
  const held = new Promise((resolve) => (giveBack = () => resolve(undefined)));
  const mine = {
    until: Date.now() + holdMs,
    held,
    giveBack() {
      if (turn === mine) turn = undefined;
      giveBack();
    },
  };
  turn = mine;
  return mine;
}

/** The instance restored ahead when it has this memory limit, else a new one. @param {number} memoryBytes */
async function take(memoryBytes) {
  const ready = spare;
  spare = undefined;
  if (ready?.memoryBytes === memoryBytes) return ready.instance;
  ready?.instance.close();
  return restore(memoryBytes);
}

/**
 * Restores the next instance into the memory when nothing runs or waits: the closed instance's
 * memory, so the worker still holds one. @param {number} memoryBytes
 */
async function prepare(memoryBytes) {
  if (spare || turn) return;
  const mine = await takeTurn(Date.now(), RESTORE_TURN_MS);
  if (!mine) return;
  try {
    spare = { memoryBytes, instance: await restore(memoryBytes) };
  } catch {
    // The next execution restores its own and reports what failed.
  } finally {
    mine.giveBack();
  }
}

/** @param {number} memoryBytes @returns {Promise<Instance>} */
async function restore(memoryBytes) {
  const image = await snapshotOnce(memoryBytes);
  const made = closable(memoryBytes, bootBytes(undefined, image), false);
  try {
    return { py: await boot({ snapshot: image, ...made.boot }), close: made.close };
  } catch (err) {
    made.close();
    throw err;
  }
}

/**
 * What the next instance boots with: the worker's one memory (`fresh`: a new one), its maximum
 * `memoryBytes` and at least `bytes`, once the instance that had it is closed; its own `js` globals
 * and timers; a gate. And how it is closed: its timers stopped, its entries shut (gate.js), its
 * MessageChannel closed (boot.js). Closed twice is closed once.
 * @param {number} memoryBytes @param {number} bytes @param {boolean} fresh
 */
function closable(memoryBytes, bytes, fresh) {
  holder?.close();
  const maximum = Math.floor(memoryBytes / WASM_PAGE);
  const pages = Math.ceil(bytes / WASM_PAGE);
  if (fresh || !memory || memory.maximum !== maximum) {
    memory = {
      maximum,
      memory: new WebAssembly.Memory({ initial: pages, maximum: Math.max(pages, maximum) }),
    };
  }
  const short = pages - memory.memory.buffer.byteLength / WASM_PAGE;
  if (short > 0) memory.memory.grow(short);
  const realm = executionGlobals();
  const gate = { closed: false };
  /** @type {MessagePort[]} */
  const channels = [];
  const mine = {
    boot: { jsglobals: realm.globals, memory: memory.memory, gate, channels },
    close() {
      if (gate.closed) return;
      gate.closed = true;
      realm.close();
      closeChannels(channels);
      if (holder === mine) holder = undefined;
    },
  };
  holder = mine;
  return mine;
}

/**
 * This worker's snapshot: the first execution boots CPython in a new memory of the execution's
 * maximum, snapshots it, closes it (the first restore then takes its memory) and hardens the realm.
 * @param {number} memoryBytes
 */
async function snapshotOnce(memoryBytes) {
  if (snapshot) return snapshot;
  const made = closable(memoryBytes, bootBytes(undefined), true);
  try {
    const py = await boot({ makeSnapshot: true, ...made.boot });
    if (!snapshot) {
      snapshot = compactImage(snapshotOf(py));
      harden([globalThis, py._api.runtimeEnv]);
    }
  } finally {
    made.close();
  }
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
