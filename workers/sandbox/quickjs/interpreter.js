// Interpreters, made before an execution asks for one, and an execution's start in one.
import {
  interpretersThatFit,
  QUICKJS_LIMITS as LIMITS,
  BRIDGE_METHODS as METHODS,
} from "../../../shared/contract/engine";
import { Execution, MAIN } from "./execution.js";
import { addLeanFunctions } from "./lean-calls.js";
import { memoryKeeper, setTo } from "./memories.js";
import { errorMessage, stoppedReport, stopReport } from "./reports.js";
import { handleAt, hostRefsOf, machine, madeAround, photograph, restore } from "./snapshot.js";
import { V8_POLYFILLS, WORKER_FUNCTIONS } from "./worker-functions.js";
import { LEAN_V8 } from "./worker-v8.js";

/* global PRELUDE_SOURCE, RUN_CODE_SOURCE */
/** prelude.js, minified, inlined at build time (scripts/build-quickjs.mjs) */
const PRELUDE = PRELUDE_SOURCE;
/** The runtime's run-code.js (workers/sandbox/runtime), the same for every execution: evaluated ahead. */
const RUN_CODE = RUN_CODE_SOURCE;

/** Linear memories, set back and handed out again: as many as run at once, and the next interpreter's. */
const memories = memoryKeeper();
/** @param {number} memoryBytes how many memories the keeper may own for interpreters of this limit */
const memoriesKept = (memoryBytes) => interpretersThatFit(memoryBytes) + 1;

/** @typedef {import("../../../shared/contract/sandbox").EngineRun} EngineRun */

/** QuickJS's own error for a failed allocation: the sandbox reports it as ResourceLimitError (quickjs-error.ts). */
const OUT_OF_MEMORY = { name: "InternalError", message: "out of memory" };

/**
 * What the image of the prepared interpreter (snapshot.js) needs beside its bytes to be an
 * interpreter again: its runtime's and context's pointers, its handles' (each a JSValue copy in its
 * memory) and how many host functions it registered (their ids are given in order).
 * @typedef {{
 *   image: import("./snapshot.js").Image, rt: number, ctx: number, hostRefs: number,
 *   handles: Record<"bridge" | "begin" | "runAgentCode" | "stopExecution", number>,
 * }} Prepared
 */

/** the handles an interpreter keeps of what the prelude and run-code.js made */
const HANDLES = /** @type {const} */ (["bridge", "begin", "runAgentCode", "stopExecution"]);

/** @type {Prepared | undefined} this worker's first prepared interpreter, photographed */
let prepared;

/**
 * An interpreter made before an execution asks for one: QuickJS's runtime and context with the
 * prelude, its polyfills and run-code.js run in them (the parts of an execution's start that do not
 * depend on the execution), in a wasm instance of its own. The first one a worker makes is
 * evaluated and photographed (snapshot.js); each next one is that image written back into a wasm
 * instance and its memory (a new one, or those of an interpreter whose execution has closed). It
 * holds nothing of any execution until one takes it, and serves only that one. The next is made
 * once an execution has its own, off its path.
 */
class Interpreter {
  /** @param {number} memoryBytes the execution's memory limit: its linear memory's maximum (memories.js) */
  static async make(memoryBytes) {
    const memory = memories.take(memoryBytes);
    try {
      return await Interpreter.#makeIn(memory, memoryBytes);
    } catch (err) {
      // Nothing holds the half-made interpreter: its memory goes back as a finished one's does.
      memory.machine = undefined;
      memories.giveBack(memory, memoriesKept(memoryBytes));
      throw err;
    }
  }

  /** @param {WebAssembly.Memory & { full: boolean, machine?: import("./snapshot.js").Machine }} memory @param {number} memoryBytes */
  static async #makeIn(memory, memoryBytes) {
    const fresh = !memory.machine;
    const made = memory.machine ?? (await machine(memory));
    memory.machine = made;
    if (!prepared) prepared = Interpreter.#prepare(made, memory, memoryBytes);
    // A new instance wrote its static data and ran its constructors (and a prepared one evaluated
    // Math.random once): the image replaces them.
    if (fresh) setTo(memory, prepared.image.memory, prepared.image.breakAt);
    restore(made, memory, prepared.image);
    const { runtime, vm } = madeAround(made, prepared.rt, prepared.ctx);
    const it = new Interpreter(runtime, vm, memory, memoryBytes);
    it.hostObject(false);
    if (hostRefsOf(runtime).nextId !== prepared.hostRefs)
      throw new Error("an interpreter set back to the image registered other host functions");
    for (const name of HANDLES) it[name] = handleAt(vm, prepared.handles[name]);
    return it;
  }

  /**
   * Evaluates the prelude, its polyfills and run-code.js in `made` and photographs the result.
   * @param {import("./snapshot.js").Machine} made @param {WebAssembly.Memory & { full: boolean }} memory
   * @param {number} memoryBytes
   * @returns {Prepared}
   */
  static #prepare(made, memory, memoryBytes) {
    const runtime = made.quickjs.newRuntime();
    runtime.setMaxStackSize(LIMITS.stackBytes);
    const vm = runtime.newContext();
    const it = new Interpreter(runtime, vm, memory, memoryBytes);
    const preludeFn = vm.unwrapResult(vm.evalCode(PRELUDE, "prelude.js", { type: "global", strict: true }));
    const methods = vm.unwrapResult(vm.evalCode(JSON.stringify(METHODS)));
    const fidelity = V8_POLYFILLS.map((source) =>
      vm.unwrapResult(vm.evalCode(source, "v8.js", { type: "global", strict: true })),
    );
    const worker = /** @type {import("quickjs-emscripten-core").QuickJSHandle} */ (it.hostObject(true));
    const exported = vm.unwrapResult(vm.callFunction(preludeFn, vm.undefined, worker, methods, ...fidelity));
    const runCode = vm.unwrapResult(vm.evalCode(RUN_CODE, "run-code.js", { type: "module" }));
    /** @type {Prepared["handles"]} */
    const handles = {
      bridge: vm.getProp(exported, "bridge").value,
      begin: vm.getProp(exported, "begin").value,
      runAgentCode: vm.getProp(runCode, "runAgentCode").value,
      stopExecution: vm.getProp(runCode, "stopExecution").value,
    };
    const hostRefs = hostRefsOf(runtime);
    if (hostRefs.freelist.length > 0) throw new Error("a prepared interpreter freed a host function");
    const ptrs = /** @type {{ rt: { value: number }, ctx: { value: number } }} */ (
      /** @type {unknown} */ (vm)
    );
    const image = photograph(made, memory, vm, ptrs.ctx.value);
    return { image, rt: ptrs.rt.value, ctx: ptrs.ctx.value, hostRefs: hostRefs.nextId, handles };
  }

  /**
   * @param {import("quickjs-emscripten-core").QuickJSRuntime} runtime
   * @param {import("quickjs-emscripten-core").QuickJSContext} vm
   * @param {WebAssembly.Memory & { full: boolean }} memory its wasm instance's linear memory, given back
   *   once its execution closed; `full` once its maximum refused the allocator's growth
   * @param {number} memoryBytes the memory limit it was made for
   */
  constructor(runtime, vm, memory, memoryBytes) {
    this.runtime = runtime;
    this.vm = vm;
    this.memory = memory;
    this.memoryBytes = memoryBytes;
    /** marks byte arrays in bridge JSON (prelude.js); agent code never sees it */
    this.tag = `\ue000b${crypto.randomUUID()}:`;
    /** @type {Execution | undefined} the one execution this interpreter serves, once taken */
    this.exec = undefined;
    /**
     * `deadline`: the wall-clock limit, checked every 8th call where the clock moves (not on Cloudflare).
     * A full memory stops the code too: it can make nothing more (execution.js reports the limit).
     */
    this.fuel = { used: 0, limit: Number.POSITIVE_INFINITY, out: false, deadline: Number.POSITIVE_INFINITY };
    const fuel = this.fuel;
    runtime.setInterruptHandler(() => {
      const going = ++fuel.used <= fuel.limit && !memory.full;
      if (going && ((fuel.used & 7) !== 0 || Date.now() <= fuel.deadline)) return false;
      fuel.out = true;
      return true;
    });
    /** @type {import("quickjs-emscripten-core").QuickJSHandle | undefined} */
    this.bridge = undefined;
    /** @type {import("quickjs-emscripten-core").QuickJSHandle | undefined} */
    this.begin = undefined;
    /** @type {import("quickjs-emscripten-core").QuickJSHandle | undefined} run-code.js's exports */
    this.runAgentCode = undefined;
    /** @type {import("quickjs-emscripten-core").QuickJSHandle | undefined} */
    this.stopExecution = undefined;
  }

  /**
   * The functions prelude.js gets as `worker`: each serves the execution that took this interpreter.
   * `make` false: the interpreter is set back to the image, where they exist already (snapshot.js):
   * only their ids are registered, in the same order, so they come out the same.
   * @param {boolean} make
   */
  hostObject(make) {
    const { vm } = this;
    const worker = make ? vm.newObject() : undefined;
    for (const [name, impl] of Object.entries(WORKER_FUNCTIONS)) {
      /** @param {import("quickjs-emscripten-core").QuickJSHandle[]} args */
      const serve = (...args) => {
        try {
          if (!this.exec) throw new Error("no execution has this interpreter");
          return impl(this.exec, ...args);
        } catch (err) {
          return { error: vm.newError({ name: "TypeError", message: `${name}: ${errorMessage(err)}` }) };
        }
      };
      if (worker) vm.setProp(worker, name, vm.newFunction(name, serve));
      else hostRefsOf(this.runtime).put(serve);
    }
    // Stateless and called often: V8's Math, collation and formatting (worker-v8.js).
    addLeanFunctions(vm, worker, LEAN_V8);
    return worker;
  }
}

/** @type {Promise<Interpreter> | undefined} */
let spare;

/** The prepared interpreter when it was made for this memory limit, else a new one. @param {number} memoryBytes */
async function takeInterpreter(memoryBytes) {
  const ready = spare;
  spare = undefined;
  const it = await ready?.catch(() => undefined);
  if (it?.memoryBytes === memoryBytes) return it;
  if (it) giveBack(it.memory, it.memoryBytes);
  return Interpreter.make(memoryBytes);
}

/**
 * Gives back the memory of an interpreter nothing will call again, set to the prepared image.
 * @param {WebAssembly.Memory & { full: boolean }} memory @param {number} memoryBytes the limit it was made for
 */
function giveBack(memory, memoryBytes) {
  memories.giveBack(memory, memoriesKept(memoryBytes), prepared?.image.memory, prepared?.image.breakAt);
}

/** Makes the next interpreter, unless one is ready or being made; settles when it is made. @param {number} memoryBytes */
async function prepareSpare(memoryBytes) {
  if (spare) return;
  const made = Interpreter.make(memoryBytes);
  spare = made;
  await made.catch(() => {
    if (spare === made) spare = undefined;
  });
}

/**
 * @param {EngineRun} run
 * @param {import("../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
 * @param {(work: Promise<unknown>) => void} waitUntil the request's: keeps the worker at work after
 *   the report (a timer alone would never fire: the request's context ends with its answer)
 * @param {() => void} done called exactly once, when this execution's memory is back in the keeper
 * @returns {Promise<string>}
 */
export async function execute(run, bridge, waitUntil, done) {
  /** @type {Interpreter} */
  let it;
  try {
    it = await takeInterpreter(run.memoryBytes);
  } catch (err) {
    done();
    throw err;
  }
  /** @type {Execution | undefined} */
  let exec;
  try {
    it.runtime.setMemoryLimit(run.memoryBytes);
    it.fuel.limit = run.fuel;
    it.fuel.deadline = Date.now() + run.options.timeoutMs;
    const modules = { ...run.modules, "main.js": MAIN };
    let linking = true;
    it.runtime.setModuleLoader(
      (name) =>
        linking && Object.hasOwn(modules, name) ? modules[name] : { error: new Error(`No module ${name}`) },
      (_base, requested) => (requested.startsWith("./") ? requested.slice(2) : requested),
    );
    exec = new Execution(it, bridge, run);
    it.exec = exec;
    const report = await exec.start(() => {
      linking = false;
    });
    return it.memory.full ? outOfMemoryReport(report) : report;
  } catch (err) {
    if (it.memory.full) return stopReport(OUT_OF_MEMORY);
    throw err;
  } finally {
    exec?.close();
    // The runtime and context are not disposed: their memory is set back to the image whole, which
    // also drops what a stopped execution left (disposing would assert on its live objects); closed,
    // the execution calls into it no more, so it can be set back for the next interpreter. That is
    // done after a macrotask, once this report is on its way, with the next interpreter's
    // preparation (the image written back, zeros up to the allocator's break: memories.js).
    // `done` once the memory is back and the next interpreter's preparation has taken it: an
    // execution admitted before would make a memory of its own, and two grown memories (a running
    // one and a zeroed one) passed the isolate's 128 MB (scripts/bench/memory.mjs: 131 MB).
    waitUntil(
      new Promise((go) => setTimeout(go, 0)).then(() => {
        try {
          giveBack(it.memory, run.memoryBytes);
          return prepareSpare(run.memoryBytes);
        } finally {
          done();
        }
      }),
    );
  }
}

/**
 * The report of an execution whose memory refused to grow: its error is the memory limit, whatever
 * the runtime could still say (with no memory left QuickJS cannot make its error: `Uncaught null`).
 * @param {string} report
 */
function outOfMemoryReport(report) {
  try {
    const { error } = JSON.parse(report);
    if (!error || (error.name === OUT_OF_MEMORY.name && error.message === OUT_OF_MEMORY.message))
      return report;
  } catch {}
  return stoppedReport(report, OUT_OF_MEMORY);
}
