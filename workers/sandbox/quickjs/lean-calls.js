// Host functions called often enough that quickjs-emscripten's general path (a handle and a scope
// per argument, ~8 µs a call in workerd) would be most of their cost: Math's V8 functions and the
// collator behind `localeCompare` (a sort of 10,000 names makes ~130,000 calls). Their arguments are
// only numbers and strings, read straight from QuickJS's values by the library's FFI, and they answer
// one number or string. This reaches the context's private C → JavaScript dispatch (`cToHostCallbacks`,
// `ffi`, `ctx`, `memory`, `runtime.hostRefs`) of quickjs-emscripten-core, pinned at 0.32.0 in
// package.json: an upgrade must keep test/unit/engine-fidelity.test.ts green.

/**
 * A lean worker function: `args` says how each argument is read ("n" a number, "s" a string, "*n"
 * any number of numbers); `call` answers a number or a string, or throws (QuickJS code gets the error).
 * @typedef {{ args: string, call: (...values: (number | string)[]) => number | string }} LeanFunction
 */

/**
 * What this reaches of a QuickJSContext beyond its public API.
 * @typedef {{
 *   ffi: Record<string, (...args: number[]) => number>,
 *   ctx: { value: number },
 *   cToHostCallbacks: { callFunction: (ctx: number, thisPtr: number, argc: number, argv: number, fnId: number) => number },
 *   memory: { consumeJSCharPointer: (ptr: number) => string, heapValueHandle: (ptr: number) => import("quickjs-emscripten-core").QuickJSHandle },
 *   runtime: { hostRefs: { put: (value: unknown) => number } },
 * }} ContextInternals
 */

/**
 * Adds each of `table` to the QuickJS object `target` as a function of the context `vm`, answered
 * on the lean path; every other worker function keeps the library's. Without `target` (a context
 * set back to a prepared interpreter's image, snapshot.js: its functions exist already) only their
 * ids are registered, which come out the same as when they were made.
 * @param {import("quickjs-emscripten-core").QuickJSContext} vm
 * @param {import("quickjs-emscripten-core").QuickJSHandle | undefined} target
 * @param {Record<string, LeanFunction>} table
 */
export function addLeanFunctions(vm, target, table) {
  const internals = /** @type {ContextInternals} */ (/** @type {unknown} */ (vm));
  const { ffi } = internals;
  const ctx = internals.ctx.value;
  const callbacks = internals.cToHostCallbacks;
  /** @type {Map<number, LeanFunction>} */
  const lean = new Map();
  const general = callbacks.callFunction;
  const readString = (ptr) => internals.memory.consumeJSCharPointer(ffi.QTS_GetString(ctx, ptr));
  callbacks.callFunction = (ctxPtr, thisPtr, argc, argv, fnId) => {
    const fn = lean.get(fnId);
    if (!fn || ctxPtr !== ctx) return general(ctxPtr, thisPtr, argc, argv, fnId);
    try {
      const values = [];
      const count = fn.args === "*n" ? argc : fn.args.length;
      for (let i = 0; i < count; i++) {
        const string = fn.args[i] === "s";
        if (i >= argc) values.push(string ? "undefined" : Number.NaN);
        else {
          const ptr = ffi.QTS_ArgvGetJSValueConstPointer(argv, i);
          values.push(string ? readString(ptr) : ffi.QTS_GetFloat64(ctx, ptr));
        }
      }
      const answer = fn.call(...values);
      if (typeof answer === "number") return ffi.QTS_NewFloat64(ctx, answer);
      const handle = vm.newString(answer);
      const ptr = ffi.QTS_DupValuePointer(ctx, handle.value);
      handle.dispose();
      return ptr;
    } catch (err) {
      return vm.throw(err instanceof Error ? err : new Error(String(err)));
    }
  };
  for (const [name, fn] of Object.entries(table)) {
    const id = internals.runtime.hostRefs.put(fn);
    lean.set(id, fn);
    if (!target) continue;
    const handle = internals.memory.heapValueHandle(
      ffi.QTS_NewFunction(ctx, name, fn.args === "*n" ? 2 : fn.args.length, false, id),
    );
    vm.setProp(target, name, handle);
    handle.dispose();
  }
}
