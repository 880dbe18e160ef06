// Imported FIRST by isolate.js (ES imports evaluate in order), before pyodide.asm.js and pyodide.mjs:
// pyodide.mjs decides its runtime environment and compiles its "sentinel" wasm at module-evaluation time.
import { PRECOMPILED } from "./precompiled.js";

// JSPI (pyodide's run_sync) stays off: the memory snapshot is made without it.
const JSPI = false;

// ---- 1. environment: make pyodide.mjs / Emscripten see a "browser web worker" ------------------------
// pyodide.mjs: IN_BROWSER_WEB_WORKER = typeof WorkerGlobalScope<"u" && self instanceof WorkerGlobalScope;
// without it, it throws "Cannot determine runtime environment" at import.
// workerd defines a native WorkerGlobalScope, but `self instanceof WorkerGlobalScope` is false there.
if (
  !(
    typeof globalThis.WorkerGlobalScope === "function" &&
    globalThis.self instanceof globalThis.WorkerGlobalScope
  )
) {
  const selfRef = globalThis.self;
  function WorkerGlobalScope() {}
  Object.defineProperty(WorkerGlobalScope, Symbol.hasInstance, {
    value: (v) => v === selfRef || v === globalThis,
  });
  globalThis.WorkerGlobalScope = WorkerGlobalScope;
}
// Emscripten (ENVIRONMENT_IS_WORKER) reads self.location.href; pyodide resolves URLs against location.
export const BASE_URL = "https://pyodide.invalid/";
if (typeof globalThis.location === "undefined") globalThis.location = new URL(BASE_URL);
// Emscripten's main-loop code and some pyodide scheduling look for setImmediate.
if (typeof globalThis.setImmediate === "undefined") {
  globalThis.setImmediate = (fn, ...args) => setTimeout(fn, 0, ...args);
  globalThis.clearImmediate = (id) => clearTimeout(id);
}

// ---- 2. no run-time wasm compilation -----------------------------------------------------------------
// Workers refuse `new WebAssembly.Module(bytes)` / `WebAssembly.compile(bytes)` ("Wasm code generation
// disallowed by embedder"). Every tiny module pyodide/Emscripten compiles at run time is shipped
// precompiled (build.mjs) and looked up here by its exact bytes:
//   - Emscripten convertJsFunctionToWasm(func, sig): "e.f -> f" wrapper of type sig (addFunction of JS fns)
//   - CPython _PyEM_InitTrampoline_js/getPyEMCountArgsPtr: the wasm-GC "count args" trampoline
//   - pyodide.mjs error sentinel module
// Anything else falls through to the original, which throws in Workers; misses are recorded.
const OrigModule = WebAssembly.Module;
const origCompile = WebAssembly.compile;
const origInstantiate = WebAssembly.instantiate;
export const wasmMisses = [];
export const wasmHits = { count: 0 };

function toU8(src) {
  if (src instanceof Uint8Array) return src;
  if (ArrayBuffer.isView(src)) return new Uint8Array(src.buffer, src.byteOffset, src.byteLength);
  if (src instanceof ArrayBuffer) return new Uint8Array(src);
  return null;
}
function b64(u8) {
  let s = "";
  for (let i = 0; i < u8.length; i++) s += String.fromCharCode(u8[i]);
  return btoa(s);
}
export function lookupPrecompiled(src) {
  const u8 = toU8(src);
  if (!u8 || u8.length > 4096) return undefined;
  if (u8.length === 8 && !JSPI) {
    // the empty-module probe: failing it keeps pyodide's JSPI off (default)
    wasmMisses.push("empty-module probe (JSPI off)");
    return undefined;
  }
  const m = PRECOMPILED.get(b64(u8));
  if (m) wasmHits.count++;
  else wasmMisses.push(Array.from(u8.subarray(0, 64)).join(","));
  return m;
}

function PatchedModule(bytes, options) {
  if (!new.target) throw new TypeError("WebAssembly.Module must be invoked with 'new'");
  const hit = lookupPrecompiled(bytes);
  if (hit) return hit; // a constructor may return another object
  try {
    return new OrigModule(bytes, options);
  } catch (err) {
    wasmMisses[wasmMisses.length - 1] += ` -> ${err}`;
    throw err;
  }
}
PatchedModule.prototype = OrigModule.prototype; // keeps `x instanceof WebAssembly.Module` true
Object.setPrototypeOf(PatchedModule, OrigModule); // keeps Module.exports/imports/customSections
WebAssembly.Module = PatchedModule;
WebAssembly.compile = async function compile(bytes, options) {
  return lookupPrecompiled(bytes) ?? origCompile.call(WebAssembly, bytes, options);
};
WebAssembly.instantiate = async function instantiate(src, imports) {
  if (src instanceof OrigModule) return origInstantiate.call(WebAssembly, src, imports);
  const hit = lookupPrecompiled(src);
  if (hit) return { module: hit, instance: await origInstantiate.call(WebAssembly, hit, imports) };
  return origInstantiate.call(WebAssembly, src, imports);
};
