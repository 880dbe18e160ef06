// Starts one CPython interpreter (pyodide) in this isolate: from scratch, to make a memory snapshot, or
// restored from one. Each call is a new WebAssembly instance of CPython with its own linear memory.
// Used by isolate.js (one execution per isolate) and warm.js (one instance per execution in a warm
// worker). Both set up pyodide's environment the same way, once per isolate, when this module loads.
import { writeImage } from "./image.js";
import { BY_NAME } from "./precompiled.js";
import { BASE_URL } from "./shim.js"; // first: pyodide decides its environment when imported
import "./pyodide.asm.js"; // defines globalThis._createPyodideModule
import globalsSource from "./_sandbox_globals.py";
import guardSource from "./_sandbox_guard.py";
import jsonSource from "./_sandbox_json.py";
import skillsSource from "./_sandbox_skills.py";
import driverSource from "./driver.py";
import pyodideWasm from "./pyodide.asm.wasm";
import { loadPyodide } from "./pyodide.mjs";
import lockText from "./pyodide-lock.json";
import stdlibZip from "./python_stdlib.zip";

const WASM_PAGE = 65_536;

// pyodide fetches the stdlib zip (answered from the data module) and prefetches the wasm (unused).
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (url === `${BASE_URL}python_stdlib.zip`) return new Response(stdlibZip);
  if (url === `${BASE_URL}pyodide.asm.wasm`) return new Response(null, { status: 404 });
  return realFetch(input, init);
};

// CPython's wasm was compiled when the isolate was loaded; instantiate it instead of compiling bytes.
// With a memory limit (`_memoryBytes`, which loadPyodide keeps in the instance's config), the instance
// gets a memory that cannot grow past it (malloc fails: MemoryError). `_image`: a compact snapshot
// (image.js) to restore; `_channels`: gets the MessagePorts the instance opens (below).
const createModule = globalThis._createPyodideModule;
globalThis._createPyodideModule = (settings) => {
  opening = settings.API?.config?._channels;
  settings.instantiateWasm = (imports, receiveInstance) => {
    imports.sentinel = new WebAssembly.Instance(BY_NAME.sentinel, {}).exports;
    const instance = new WebAssembly.Instance(pyodideWasm, imports);
    receiveInstance(instance, pyodideWasm);
    return instance.exports;
  };
  /** @type {import("./image.js").Image | undefined} */
  const image = settings.API?.config?._image;
  const memoryCap = settings.API?.config?._memoryBytes ?? 0;
  /** @type {WebAssembly.Memory | undefined} */
  const given = settings.API?.config?._memory;
  if (given) settings.wasmMemory = given;
  else if (memoryCap > 0) {
    const bytes = image ? image.header.length + image.bytes : settings.INITIAL_MEMORY;
    const initial = Math.ceil((bytes ?? 20 * 1024 * 1024) / WASM_PAGE);
    const maximum = Math.max(initial, Math.floor(memoryCap / WASM_PAGE));
    settings.wasmMemory = new WebAssembly.Memory({ initial, maximum });
  }
  try {
    const made = createModule(settings);
    // Restoring a compact image: pyodide restores its header (JS state), then its pages are written.
    return !image
      ? made
      : made.then((/** @type {{ HEAP8: Int8Array }} */ module) => {
          const restore = settings.API.restoreSnapshot;
          settings.API.restoreSnapshot = (/** @type {Uint8Array} */ header) => {
            const state = restore(header);
            writeImage(new Uint8Array(module.HEAP8.buffer), image);
            return state;
          };
          return module;
        });
  } finally {
    opening = undefined;
  }
};

// pyodide's glue opens a MessageChannel per instance while it is made (how it schedules callbacks
// soon) and listens on it: an open port is a root, so the instance, its linear memory included,
// stayed reachable after its execution and each memory bomb's grown memory stayed resident. The
// channels an instance opens are recorded (`_channels` of its config) for closeChannels.
/** @type {MessagePort[] | undefined} */
let opening;
const Channel = globalThis.MessageChannel;
if (typeof Channel === "function") {
  globalThis.MessageChannel = class extends Channel {
    constructor() {
      super();
      opening?.push(this.port1, this.port2);
    }
  };
}

/** Closes the channels an instance opened (boot's `channels`); it schedules nothing after. @param {MessagePort[]} ports */
export function closeChannels(ports) {
  for (const port of ports.splice(0)) {
    port.onmessage = null;
    port.close();
  }
}

/**
 * A new interpreter. `snapshot`: restore it (bytes from makeMemorySnapshot, or their compact image,
 * image.js, which needs a `memoryBytes` limit); without one, boot from
 * scratch and import the driver (made to be snapshotted when `makeSnapshot`). `jsglobals`: what
 * Python's `js` module is (default: this isolate's globalThis). `memoryBytes`: the instance's memory
 * limit (0: none). `memory`: a memory to use instead of a new one (at most `memoryBytes`: the warm
 * worker's first instance reuses the one its snapshot was made in). `channels`: gets the MessagePorts the instance opens (closeChannels). Each call is
 * independent of the others (no state is kept between them here).
 * @param {{ snapshot?: Uint8Array | import("./image.js").Image | null, makeSnapshot?: boolean, jsglobals?: object, memoryBytes?: number, memory?: WebAssembly.Memory, channels?: MessagePort[] }} how
 */
export async function boot({
  snapshot = null,
  makeSnapshot = false,
  jsglobals,
  memoryBytes = 0,
  memory,
  channels = [],
}) {
  const py = await loadPyodide({
    indexURL: BASE_URL,
    packageBaseUrl: BASE_URL,
    lockFileContents: lockText,
    env: { HOME: "/home/pyodide" },
    _makeSnapshot: makeSnapshot,
    _memoryBytes: memoryBytes,
    _memory: memory,
    _channels: channels,
    ...(jsglobals ? { jsglobals } : {}),
    ...(snapshot instanceof Uint8Array ? { _loadSnapshot: snapshot } : {}),
    ...(snapshot && !(snapshot instanceof Uint8Array)
      ? { _loadSnapshot: snapshot.header, _image: snapshot }
      : {}),
  });
  keepPythonErrors(py);
  if (snapshot) {
    // A snapshot made without wasm-GC carries a zero count-args pointer: put the live one back.
    const M = py._module;
    const field = M.__PyRuntime + M.HEAP32[M.__PyEM_EMSCRIPTEN_COUNT_ARGS_OFFSET >> 2];
    if (M._PyEM_CountArgsPtr) M.HEAP32[field >> 2] = M._PyEM_CountArgsPtr;
    py.pyimport("_sandbox").after_restore();
  } else {
    // _sandbox imports the other four: all are in sys.modules of a snapshot made from here.
    py.FS.writeFile("/home/pyodide/_sandbox.py", driverSource);
    py.FS.writeFile("/home/pyodide/_sandbox_globals.py", globalsSource);
    py.FS.writeFile("/home/pyodide/_sandbox_guard.py", guardSource);
    py.FS.writeFile("/home/pyodide/_sandbox_json.py", jsonSource);
    py.FS.writeFile("/home/pyodide/_sandbox_skills.py", skillsSource);
    py.runPython("import _sandbox");
    py.pyimport("_sandbox").preimport();
  }
  return py;
}

/**
 * pyodide's PythonError (what a Python exception becomes in JS: a rejected promise of an async call)
 * sets `Error.stackTraceLimit` around its `super()`. In a realm frozen by harden.js that assignment
 * throws, the exception is lost on its way out and the promise it should reject never settles, so
 * the request hangs. This one is the same error (same prototype, fields and stack) without it.
 * @param {Awaited<ReturnType<typeof loadPyodide>>} py
 */
function keepPythonErrors(py) {
  const api = /** @type {{ PythonError: new (...args: unknown[]) => Error }} */ (py._api);
  const Original = api.PythonError;
  function PythonError(
    /** @type {string} */ type,
    /** @type {string} */ message,
    /** @type {number} */ address,
  ) {
    const error = Reflect.construct(Error, [message], Original);
    Object.assign(error, { type, __error_address: address });
    return error;
  }
  PythonError.prototype = Original.prototype;
  api.PythonError = /** @type {typeof Original} */ (/** @type {unknown} */ (PythonError));
}

/** A memory snapshot of `py` (booted with makeSnapshot), as bytes another boot() restores. */
export function snapshotOf(py) {
  const snap = py.makeMemorySnapshot();
  return snap.byteOffset === 0 && snap.byteLength === snap.buffer.byteLength
    ? snap
    : new Uint8Array(snap.buffer.slice(snap.byteOffset, snap.byteOffset + snap.byteLength));
}
