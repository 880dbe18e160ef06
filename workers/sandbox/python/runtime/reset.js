// One CPython instance reused by the warm Python worker (warm.js): after each execution it is set
// back to the state it had just after its restore, so the next execution sees nothing of the last.
// What an execution can change, and how each is set back:
// - the linear memory (every Python object, module, sys.modules, os.environ, the C stack): written
//   back to the snapshot's image and the pages the restore changed (image.js), zeros past them; a
//   memory an execution grew stays at its size (wasm memories cannot shrink), zeroed;
// - the stack pointer; the JS values the execution handed Python (hiwire slots past the baseline,
//   nulled, and pyodide's map from JS values to their slots set back); its `js` globals (slot 1, a new object with timers of its own per execution);
// - the JS objects of the ended execution that point into the memory: its PyProxies are made dead
//   (a call throws), and its one-shot callbacks and promise handles refuse to run once the
//   generation moved on (`Module.resetGeneration`, a check scripts/build-python.mjs patches into
//   pyodide.asm.js), so a promise that settles after the reset never runs Python with a stale pointer;
// - the emscripten file system: paths an execution added are removed; a changed or removed path of
//   the baseline (its files are read-only; writing one takes a chmod) cannot be set back: reset()
//   then says no and the worker restores a new instance;
// - `random` is seeded again (os.urandom, i.e. crypto.getRandomValues).
// pyodide's own JS objects (`pyodide_js`: its API, module and FS, which a reset would keep) are made
// unreachable first: `pyodide_js` becomes a Python stub, and the hiwire slots that held them hold a
// frozen empty object. Not set back: CPython's hash secret (the snapshot's, as for every instance
// restored from it).
import { harden } from "./harden.js";
import { pagesBeside, writeImage } from "./image.js";

/** pyodide's fixed hiwire slots after a restore: [null, jsglobals, public_api, API, scheduleCallback, API, {}]. */
const GLOBALS_SLOT = 1;
const PYODIDE_SLOTS = [2, 3, 5];
const KEPT_SLOTS = [4, 6];
const SKIPPED = "/proc/self";
/** What a call of a PyProxy an ended execution made throws (the same as the patched callbacks). */
const ENDED = "This callback belongs to a Python execution that has ended";

/**
 * @typedef {{ _module: any, FS: any, _api: any, pyimport(name: string): any }} Pyodide
 * @typedef {{ node: object, mode: number, contents: unknown, size: number | undefined }} Entry
 */

/**
 * Makes a freshly restored instance (boot.js) resettable and records its baseline.
 * @param {Pyodide} py
 * @param {import("./image.js").Image} image the snapshot it was restored from
 */
export function resettable(py, image) {
  const M = py._module;
  const FS = py.FS;
  let generation = 0;
  /** @type {WeakRef<object>[]} */
  let made = [];
  const own = M.finalizationRegistry;
  // A proxy collected after a reset must not decrement a count in memory that was written back.
  const registry = new FinalizationRegistry((/** @type {{ generation: number, held: any }} */ h) => {
    if (h.generation !== generation) return;
    const ptr = Array.isArray(h.held) ? h.held[0] : h.held.ptr;
    if (ptr) M._Py_DecRef(ptr);
  });
  M.finalizationRegistry = {
    register(/** @type {object} */ target, /** @type {unknown} */ held, /** @type {object} */ token) {
      made.push(new WeakRef(target));
      registry.register(target, { generation, held }, token);
    },
    unregister(/** @type {object} */ token) {
      registry.unregister(token);
      own.unregister(token);
    },
  };
  py.pyimport("_sandbox").seal_js();
  const stub = Object.freeze(Object.create(null));
  for (const slot of PYODIDE_SLOTS) M.__hiwire_set(slot, stub);
  harden(KEPT_SLOTS.map((slot) => M.__hiwire_get(slot)));
  for (const [path, entry] of files(FS)) if (FS.isFile(entry.mode)) FS.chmod(path, 0o444);

  const heap = () => new Uint8Array(M.HEAP8.buffer);
  const beside = pagesBeside(heap(), image);
  const base = {
    sp: M.stackSave(),
    slots: slotCount(M),
    cwd: FS.cwd(),
    files: files(FS),
  };
  /** @type {Map<unknown, number>} pyodide's (Module.deduplicateMap, scripts/build-python.mjs) */
  const known = M.deduplicateMap;
  const knownBase = [...known];
  const fds = new Set(
    FS.streams.flatMap((/** @type {unknown} */ s, /** @type {number} */ fd) => (s ? [fd] : [])),
  );

  return {
    /**
     * Sets the instance back to its baseline, with `globals` as its `js`. False: it could not be
     * (the file system's baseline changed), drop the instance.
     * @param {object} globals
     */
    reset(globals) {
      for (const fd of [1, 2]) FS.streams[fd]?.stream_ops?.fsync?.(FS.streams[fd]);
      generation++;
      M.resetGeneration = generation;
      for (const ref of made) {
        const target = ref.deref();
        if (target && typeof target === "object" && "ptr" in target) {
          Object.assign(target, { ptr: 0, destroyed_msg: ENDED });
        }
      }
      made = [];
      for (let slot = base.slots; slot < slotCount(M); slot++) M.__hiwire_set(slot, null);
      known.clear();
      for (const [value, ref] of knownBase) known.set(value, ref);
      const memory = heap();
      writeImage(memory, image);
      for (const run of beside) memory.set(run.bytes, run.at);
      M.stackRestore(base.sp);
      M.__hiwire_set(GLOBALS_SLOT, globals);
      py._api.config.jsglobals = globals;
      FS.streams.forEach((/** @type {unknown} */ s, /** @type {number} */ fd) => {
        if (s && !fds.has(fd)) FS.close(s);
      });
      if (!restoreFiles(FS, base.files)) return false;
      FS.chdir(base.cwd);
      py.pyimport("_sandbox").after_restore();
      return true;
    },
  };
}

/** How many hiwire slots the instance has (pyodide's serializeHiwireState counts them so). @param {any} M */
function slotCount(M) {
  let n = 0;
  for (; ; n++) {
    try {
      M.__hiwire_get(n);
    } catch {
      return n;
    }
  }
}

/** Every path of the file system (but /proc/self) and what it is. @param {any} FS @returns {Map<string, Entry>} */
function files(FS) {
  /** @type {Map<string, Entry>} */
  const out = new Map();
  const walk = (/** @type {string} */ path) => {
    const node = FS.lookupPath(path, { follow: false }).node;
    out.set(path, { node, mode: node.mode, contents: node.contents, size: node.usedBytes });
    if (!FS.isDir(node.mode) || path === SKIPPED) return;
    for (const name of FS.readdir(path)) {
      if (name !== "." && name !== "..") walk(`${path === "/" ? "" : path}/${name}`);
    }
  };
  walk("/");
  return out;
}

/**
 * Removes the paths added since `base`; false when a path of `base` was changed or removed.
 * @param {any} FS @param {Map<string, Entry>} base
 */
function restoreFiles(FS, base) {
  const now = files(FS);
  const added = [...now.keys()].filter((path) => !base.has(path)).sort((a, b) => b.length - a.length);
  for (const path of added) {
    if (FS.isDir(now.get(path)?.mode ?? 0)) FS.rmdir(path);
    else FS.unlink(path);
  }
  for (const [path, was] of base) {
    const is = now.get(path);
    if (!is || is.node !== was.node || is.mode !== was.mode) return false;
    if (FS.isFile(was.mode) && (is.contents !== was.contents || is.size !== was.size)) return false;
  }
  return true;
}
