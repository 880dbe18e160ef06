// The gate of a CPython instance in a warm Python worker's one linear memory (warm.js): once closed,
// every entry from JS into the instance throws, so an instance whose memory went on to the next one
// never runs in it again. JS enters an instance through its exports (pyodide's calls, proxies'
// finalizers, scheduled callbacks) or through a function its table holds (emscripten's
// getWasmTableEntry): both are handed out gated. Emscripten's asynchronous dlopen would call back
// by address later: refused instead.

/**
 * What an entry into a closed instance throws: marked as pyodide's fatal error, which its glue then
 * passes over silently (a proxy's finalizer reports what it catches as a fatal error).
 */
function closed() {
  return Object.assign(new Error("this Python instance's execution has ended"), {
    pyodide_fatal_error: true,
  });
}
// Taken before harden.js freezes the realm (it does not change them).
const { get: tableGet, set: tableSet } = WebAssembly.Table.prototype;

/**
 * Gates an instance being made: `imports` are its imports (their table is given gated entries and
 * dlopen refuses), and the answer gates its exports, once it is instantiated.
 * @param {{ env: Record<string, unknown> }} imports
 * @param {{ closed: boolean }} gate
 * @returns {(exports: WebAssembly.Exports) => WebAssembly.Exports}
 */
export function gateImports(imports, gate) {
  /** @type {WeakMap<Function, Function>} */
  const gatedOf = new WeakMap();
  /** @type {WeakMap<Function, Function>} */
  const rawOf = new WeakMap();
  const gated = (/** @type {Function} */ raw) => {
    let fn = gatedOf.get(raw);
    if (!fn) {
      fn = (/** @type {unknown[]} */ ...args) => {
        if (gate.closed) throw closed();
        return raw(...args);
      };
      gatedOf.set(raw, fn);
      rawOf.set(fn, raw);
    }
    return fn;
  };
  const table = /** @type {WebAssembly.Table} */ (imports.env.__indirect_function_table);
  Object.defineProperties(table, {
    get: {
      value: (/** @type {number} */ at) => {
        const fn = tableGet.call(table, at);
        return typeof fn === "function" ? gated(fn) : fn;
      },
    },
    set: {
      value: (/** @type {number} */ at, /** @type {Function | null} */ fn) =>
        tableSet.call(table, at, (fn && rawOf.get(fn)) ?? fn),
    },
  });
  imports.env._emscripten_dlopen_js = () => {
    throw new Error("loading a dynamic library is not available in the sandbox");
  };
  return (exports) =>
    Object.fromEntries(
      Object.entries(exports).map(([name, value]) => [
        name,
        typeof value === "function" ? gated(value) : value,
      ]),
    );
}
