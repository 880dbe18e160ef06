// Main module of the `quickjs` engine's warm Python worker: loaded once per pool slot under an id that
// names the team, this code's version and the slot (`<team>:py-<hash>:<slot>`), and reused while
// warm. Its first execution boots CPython (~1–2 s), makes a memory snapshot and hardens the JS realm
// (harden.js), then restores one CPython instance from that snapshot (~0.15 s) into the boot's
// linear memory (limited to the execution's memory; the boot is retired, nothing of it runs again),
// so no second memory waits for V8's GC. Executions reuse that instance: after each one it is set
// back to its state just after the restore (reset.js: memory, JS values handed to Python, file
// system, `random`'s seed; the ended execution's JS callbacks refuse to run), with new `js` globals
// and timers that stop when its execution ends. It is dropped (its timers and MessageChannel closed,
// so nothing keeps it) and a new one restored when in doubt: the driver did not answer with its own
// report (the interpreter failed fatally, the answer came late, the code broke the runtime), the
// reset could not set the file system back, or the memory limit differs. A memory an execution
// grew stays at its size (at most the limit), zeroed past the restored state. One execution runs at
// a time (docs/bench-log.md; the worker's memory: docs/security.md "Memory on each engine").
// Each execution is a request of its own, and a request can end without running its `finally` (the
// runtime cancels one it takes for hung, or whose caller went away); a promise it made then never
// settles. So what this module keeps between executions are values, never promises: the snapshot's
// bytes and who holds the turn until when.
// Python code that calls TypeScript skills does not come here: they are modules, and a warm worker's
// code is fixed (the gateway places it in a fresh isolate, isolate.js). Python skills come as data
// (options.pythonSkills), run by the interpreter (_sandbox_skills.py).
import { WorkerEntrypoint } from "cloudflare:workers";
import { boot, closeChannels } from "./boot.js";
import { harden } from "./harden.js";
import { imageNow } from "./image.js";
import { skillCaller } from "./invoke-skills.js";
import { resettable } from "./reset.js";
import { RUN_GRACE_MS, runPython } from "./run-python.js";

/** How long restoring an instance may hold the turn (~0.15 s, seconds on a starved machine). */
const RESTORE_TURN_MS = 15_000;
/** How long booting CPython and making the snapshot may (the first execution; ~1.5–3 s, more when starved). */
const SNAPSHOT_TURN_MS = 60_000;

/** The boot's memory at first, in 64 KB pages: pyodide's initial 20 MB. */
const BOOT_PAGES = 320;

/** @type {import("./image.js").Image | undefined} its non-zero pages (image.js) */
let snapshot;
/** @type {{ memory: WebAssembly.Memory, bytes: number } | undefined} the snapshot's boot's memory, for the first restore */
let bootMemory;
/** @type {Instance | undefined} the instance executions reuse, while no execution has it */
let resident;
/**
 * Whose turn it is (an execution): until when at the latest, and a promise its request settles when
 * it gives the turn back.
 * @type {Turn | undefined}
 */
let turn;

/**
 * @typedef {Awaited<ReturnType<typeof boot>>} Pyodide
 * @typedef {{ py: Pyodide, memoryBytes: number, realm: Realm, reset(realm: Realm): boolean, close(): void }} Instance
 * @typedef {ReturnType<typeof executionGlobals>} Realm
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
    let clean = false;
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
        (answered) => {
          clean = answered;
        },
      );
    } finally {
      instance?.realm.close();
      if (instance && clean && !resident) resident = instance;
      else instance?.close();
      mine.giveBack();
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

/**
 * The instance for an execution: the resident one set back to its baseline, else a new one.
 * @param {number} memoryBytes @returns {Promise<Instance>}
 */
async function take(memoryBytes) {
  const kept = resident;
  resident = undefined;
  const realm = executionGlobals();
  if (kept?.memoryBytes === memoryBytes) {
    let reset = false;
    try {
      reset = kept.reset(realm);
    } catch {
      // set back by a new instance below
    }
    if (reset) return kept;
  }
  kept?.close();
  return restore(memoryBytes, realm);
}

/** @param {number} memoryBytes @param {Realm} first its `js` for the first execution @returns {Promise<Instance>} */
async function restore(memoryBytes, first) {
  const image = await snapshotOnce(memoryBytes);
  const reused = bootMemory?.bytes === memoryBytes ? bootMemory.memory : undefined;
  bootMemory = undefined;
  /** @type {MessagePort[]} */
  const channels = [];
  let realm = first;
  const close = () => {
    realm.close();
    closeChannels(channels);
  };
  try {
    const py = await boot({
      snapshot: image,
      jsglobals: realm.globals,
      memoryBytes,
      memory: reused,
      channels,
    });
    const baseline = resettable(py, image);
    return {
      py,
      memoryBytes,
      get realm() {
        return realm;
      },
      reset(next) {
        realm = next;
        return baseline.reset(next.globals);
      },
      close,
    };
  } catch (err) {
    close();
    throw err;
  }
}

/**
 * This worker's snapshot: the first execution boots CPython, snapshots it, then hardens the realm.
 * The boot's memory (at most `memoryBytes`) is kept for the first restore, which writes it over.
 * @param {number} memoryBytes
 */
async function snapshotOnce(memoryBytes) {
  if (snapshot) return snapshot;
  /** @type {MessagePort[]} */
  const channels = [];
  const memory = new WebAssembly.Memory({
    initial: BOOT_PAGES,
    maximum: Math.max(BOOT_PAGES, Math.floor(memoryBytes / 65_536)),
  });
  try {
    const py = await boot({ makeSnapshot: true, jsglobals: executionGlobals().globals, memory, channels });
    if (!snapshot) {
      snapshot = imageNow(py);
      // Its memory becomes the first instance's: nothing of it may run on it again (its channels
      // are closed below, its proxies' finalizer and callbacks refuse: scripts/build-python.mjs).
      Object.assign(py._module, { retired: true, resetGeneration: -1 });
      harden([globalThis, py._api.runtimeEnv]);
      bootMemory = { memory, bytes: memoryBytes };
    }
  } finally {
    closeChannels(channels);
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
