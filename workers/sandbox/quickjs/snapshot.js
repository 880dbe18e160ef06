// The prepared interpreter's image: what the next interpreter starts from instead of evaluating the
// prelude, its polyfills and run-code.js again (~7 ms of QuickJS per execution).
//
// A QuickJS wasm instance holds its whole state in two places: its linear memory and one mutable
// wasm global, the stack pointer (the module has no other global, exports no table, and its table
// is never written). So the first interpreter a worker prepares is photographed once it is prepared
// and before any execution has it: its memory's pages that hold something, and its stack pointer.
// Each next interpreter runs in a wasm instance (a new one, or the instance of an interpreter whose
// execution has closed) whose memory is set to those pages and zeros everywhere else
// (memories.js) and whose stack pointer is set back: the instance is then, byte for byte, the prepared interpreter no
// code has touched. quickjs-emscripten's objects (runtime, context, handles, the host functions'
// ids) are made again around the same pointers (interpreter.js).
// Two values of a prepared interpreter must not be the same in every interpreter: the bridge's byte
// tag (given per execution to `begin`, prelude.js) and the state of QuickJS's Math.random, seeded
// from the clock when the context was made: each interpreter gets its own, from crypto.
//
// This reaches below quickjs-emscripten-core's API, pinned at 0.32.0 in package.json (and the
// variant's glue, whose minified stack exports are named below): `machine` checks what it relies on
// and throws when an upgrade changed it; test/unit/quickjs-snapshot.test.ts must stay green.
import variantBase from "@jitl/quickjs-wasmfile-release-sync";
import {
  Lifetime,
  newQuickJSWASMModuleFromVariant,
  newVariant,
  QuickJSRuntime,
} from "quickjs-emscripten-core";
import { imageOf } from "./memories.js";
import wasmModule from "./quickjs.wasm";

/**
 * The variant's exports for the stack pointer (emscripten's stackSave, stackRestore, stackAlloc),
 * minified in @jitl/quickjs-wasmfile-release-sync 0.32.0: checked by behaviour in `machine`.
 */
const STACK = { save: "Oa", restore: "Ma", alloc: "Na" };

/**
 * One wasm instance of QuickJS in its linear memory: quickjs-emscripten's module over it and its
 * stack pointer. `aborted` once the instance stopped in emscripten's abort (never used again).
 * @typedef {{
 *   quickjs: import("quickjs-emscripten-core").QuickJSWASMModule,
 *   stackPointer: { get: () => number, set: (value: number) => void },
 *   aborted: boolean,
 * }} Machine
 */

/**
 * A new wasm instance of QuickJS whose linear memory is `memory`.
 * @param {WebAssembly.Memory} memory
 * @returns {Promise<Machine>}
 */
export async function machine(memory) {
  /** @type {Record<string, WebAssembly.ExportValue>} */
  let exports = {};
  /** @type {Machine} */
  const made = {
    quickjs: /** @type {Machine["quickjs"]} */ (/** @type {unknown} */ (undefined)),
    stackPointer: { get: () => 0, set: () => {} },
    aborted: false,
  };
  made.quickjs = await newQuickJSWASMModuleFromVariant(
    newVariant(variantBase, {
      wasmMemory: memory,
      emscriptenModule: {
        /** @param {WebAssembly.Imports} imports @param {(instance: WebAssembly.Instance) => void} ready */
        instantiateWasm(imports, ready) {
          WebAssembly.instantiate(wasmModule, imports).then((instance) => {
            exports = instance.exports;
            ready(instance);
          });
          return {};
        },
        onAbort() {
          made.aborted = true;
        },
      },
    }),
  );
  const [save, restore, alloc] = [STACK.save, STACK.restore, STACK.alloc].map((name) => exports[name]);
  if (typeof save !== "function" || typeof restore !== "function" || typeof alloc !== "function")
    throw new Error("the QuickJS variant's stack exports are not where this engine expects them");
  const at = save();
  const moved = alloc(16);
  const sawMove = save() === moved && moved === at - 16;
  restore(at);
  if (!sawMove || save() !== at)
    throw new Error("the QuickJS variant's stack exports do not behave as this engine expects");
  made.stackPointer = { get: () => save(), set: (value) => restore(value) };
  return made;
}

/**
 * A prepared interpreter's image: what its memory holds (memories.js), its stack pointer, where its
 * context keeps Math.random's state, and where its allocator keeps its break.
 * @typedef {{ memory: import("./memories.js").MemoryImage, stackPointer: number, randomStateAt: number, breakAt: number }} Image
 */

/**
 * The image of a prepared interpreter in `made`, its context at `ctx`. Finds Math.random's state by
 * calling it once (QuickJS's xorshift64*: the one 64-bit word of the context that moved as it
 * does); the interpreter is not used again until an image is written back into its memory.
 * @param {Machine} made @param {WebAssembly.Memory} memory
 * @param {import("quickjs-emscripten-core").QuickJSContext} vm @param {number} ctx
 * @returns {Image}
 */
export function photograph(made, memory, vm, ctx) {
  const image = imageOf(memory);
  const stackPointer = made.stackPointer.get();
  const span = 4_096;
  const before = new DataView(memory.buffer.slice(ctx, ctx + span));
  vm.unwrapResult(vm.evalCode("Math.random()")).dispose();
  const after = new DataView(memory.buffer, ctx, span);
  const moved = [];
  for (let at = 0; at + 8 <= span; at += 8) {
    const x = before.getBigUint64(at, true);
    if (x !== 0n && after.getBigUint64(at, true) === xorshift64(x)) moved.push(ctx + at);
  }
  if (moved.length !== 1) throw new Error(`Math.random's state not found in the context (${moved.length})`);
  return { memory: image, stackPointer, randomStateAt: moved[0], breakAt: findBreak(made, memory, image) };
}

/** How much each probe of `findBreak` allocates: past any free block of a prepared interpreter and past dlmalloc's 2 MB trim threshold. */
const PROBE_BYTES = 4 << 20;

/**
 * Where the allocator (emscripten's dlmalloc over sbrk) keeps its break, the top of the memory it
 * has taken: the one word of the static data that, over two allocations of PROBE_BYTES, holds an
 * address past each and moves up with each, and stays when both are freed (the allocator never
 * gives memory back, so nothing is ever written above the break). Its top chunk's pointer moves up
 * too, and back on the free. memories.js's `setTo` zeros only below it.
 * @param {Machine} made @param {WebAssembly.Memory} memory @param {import("./memories.js").MemoryImage} image
 */
function findBreak(made, memory, image) {
  const module = /** @type {{ _malloc: (n: number) => number, _free: (p: number) => void }} */ (
    /** @type {ModuleInternals} */ (/** @type {unknown} */ (made.quickjs)).module
  );
  const last = image[image.length - 1];
  const words = (last.at + last.bytes.length) / 4;
  const before = new Uint32Array(memory.buffer.slice(0, words * 4));
  const first = module._malloc(PROBE_BYTES);
  const afterFirst = new Uint32Array(memory.buffer, 0, words).slice();
  const second = module._malloc(PROBE_BYTES);
  const afterSecond = new Uint32Array(memory.buffer, 0, words).slice();
  module._free(second);
  module._free(first);
  const afterFree = new Uint32Array(memory.buffer, 0, words);
  const found = [];
  for (let i = 0; i < words && first && second; i++) {
    const moved = afterFirst[i] >= first + PROBE_BYTES && afterSecond[i] >= afterFirst[i] + PROBE_BYTES;
    if (before[i] < afterFirst[i] && moved && afterFree[i] === afterSecond[i]) found.push(i * 4);
  }
  if (found.length !== 1)
    throw new Error(`the allocator's break not found in the static data (${found.length})`);
  return found[0];
}

/** @param {bigint} x */
function xorshift64(x) {
  const mask = (1n << 64n) - 1n;
  let y = x ^ (x >> 12n);
  y ^= (y << 25n) & mask;
  return y ^ (y >> 27n);
}

/**
 * Sets `made` back to the image: its stack pointer, and Math.random's state, new from crypto (the
 * memory holds the image's bytes already: memories.js). The instance is then the prepared interpreter.
 * @param {Machine} made @param {WebAssembly.Memory} memory @param {Image} image
 */
export function restore(made, memory, image) {
  made.stackPointer.set(image.stackPointer);
  const seed = new BigUint64Array(1);
  while (seed[0] === 0n) crypto.getRandomValues(seed);
  new DataView(memory.buffer).setBigUint64(image.randomStateAt, seed[0], true);
}

/**
 * What quickjs-emscripten-core keeps private and an interpreter set back to the image rebuilds.
 * @typedef {{ module: unknown, ffi: unknown, callbacks: unknown }} ModuleInternals
 * @typedef {{ hostRefs: { put: (value: unknown) => number, nextId: number, freelist: number[] } }} RuntimeInternals
 * @typedef {{ memory: { heapValueHandle: (ptr: number) => import("quickjs-emscripten-core").QuickJSHandle } }} ContextInternals
 * @typedef {ConstructorParameters<typeof QuickJSRuntime>[0]} RuntimeArgs
 * @typedef {import("quickjs-emscripten-core").JSContextPointer} ContextPointer
 */

/** The host functions' table of a runtime (their ids are given in order). @param {QuickJSRuntime} runtime */
export const hostRefsOf = (runtime) =>
  /** @type {RuntimeInternals} */ (/** @type {unknown} */ (runtime)).hostRefs;

/**
 * quickjs-emscripten's runtime and context objects made again around the runtime and context at
 * `rt` and `ctx` of `made`'s memory (an image written back into it).
 * @param {Machine} made @param {number} rt @param {number} ctx
 */
export function madeAround(made, rt, ctx) {
  const quickjs = /** @type {ModuleInternals} */ (/** @type {unknown} */ (made.quickjs));
  const args = /** @type {unknown} */ ({ ...quickjs, rt: new Lifetime(rt) });
  const runtime = new QuickJSRuntime(/** @type {RuntimeArgs} */ (args));
  const contextPointer = /** @type {ContextPointer} */ (/** @type {unknown} */ (ctx));
  return { runtime, vm: runtime.newContext({ contextPointer }) };
}

/** A handle to the JSValue kept at `ptr` in `vm`'s memory. @param {import("quickjs-emscripten-core").QuickJSContext} vm @param {number} ptr */
export const handleAt = (vm, ptr) =>
  /** @type {ContextInternals} */ (/** @type {unknown} */ (vm)).memory.heapValueHandle(ptr);
