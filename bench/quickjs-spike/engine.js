// The warm Dynamic Worker's code: it never changes, so one Worker serves every execution of its
// slot. Each execution's code arrives as data and runs in a fresh wasm instance of QuickJS (its own
// linear memory), bounded by fuel (interrupt-handler calls), a memory limit and a stack limit.

import variantBase from "QUICKJS_VARIANT";
import { WorkerEntrypoint } from "cloudflare:workers";
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core";
import wasmModule from "./quickjs.wasm";

const variant = newVariant(variantBase, { wasmModule });

/**
 * Natives that loop over an array-like's `length` without allocating or calling back into JS never
 * reach the interrupt handler; these refuse a length that large before they start. Runs in each
 * fresh context before the agent's code; the originals stay in its closure only.
 */
const PRELUDE = `(() => {
  const MAX = 2 ** 24;
  const A = Array.prototype;
  const apply = Reflect.apply;
  for (const name of ["indexOf", "lastIndexOf", "includes", "join", "toString", "toLocaleString", "fill",
      "copyWithin", "reverse", "sort", "splice", "slice", "concat", "flat", "toReversed", "toSorted",
      "toSpliced", "with"]) {
    const native = A[name];
    if (typeof native !== "function") continue;
    const guarded = { [name](...args) {
      const length = this === null || this === undefined ? 0 : Number(this.length);
      if (length > MAX) throw new RangeError(name + ": a length of " + length + " is over the sandbox's " + MAX);
      return apply(native, this, args);
    } }[name];
    Object.defineProperty(A, name, { value: guarded, writable: true, configurable: true, enumerable: false });
  }
})();`;
let runs = 0;
/** the one wasm instance `shared` runs reuse (a new runtime and context each time) */
let sharedModule;

export default class Engine extends WorkerEntrypoint {
  /** @param {string} code @param {{ fuel?: number, memoryBytes?: number, shared?: boolean }} limits */
  async run(code, { fuel = 2_000, memoryBytes = 32 * 1024 * 1024, shared = false } = {}) {
    const started = performance.now();
    sharedModule ??= shared ? await newQuickJSWASMModuleFromVariant(variant) : undefined;
    const quickjs = shared ? sharedModule : await newQuickJSWASMModuleFromVariant(variant);
    const runtime = quickjs.newRuntime();
    runtime.setMemoryLimit(memoryBytes);
    runtime.setMaxStackSize(512 * 1024);
    let calls = 0;
    runtime.setInterruptHandler(() => ++calls > fuel);
    const vm = runtime.newContext();
    let out;
    const prelude = vm.evalCode(PRELUDE);
    if (prelude.error) prelude.error.dispose();
    else prelude.value.dispose();
    const result = vm.evalCode(code);
    if (result.error) {
      out = { error: vm.dump(result.error) };
      result.error.dispose();
    } else {
      out = { value: vm.dump(result.value) };
      result.value.dispose();
    }
    vm.dispose();
    runtime.dispose();
    runs++;
    return { ...out, interrupts: calls, ms: performance.now() - started, runs };
  }
}
