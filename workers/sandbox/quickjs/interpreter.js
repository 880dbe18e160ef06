// Interpreters, made before an execution asks for one, and an execution's start in one.
import variantBase from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core";
import {
  interpretersThatFit,
  QUICKJS_LIMITS as LIMITS,
  BRIDGE_METHODS as METHODS,
} from "../../../shared/contract/engine";
import { Execution, MAIN } from "./execution.js";
import { addLeanFunctions } from "./lean-calls.js";
import { memoryKeeper } from "./memories.js";
import wasmModule from "./quickjs.wasm";
import { errorMessage, stoppedReport, stopReport } from "./reports.js";
import { V8_POLYFILLS, WORKER_FUNCTIONS } from "./worker-functions.js";
import { LEAN_V8 } from "./worker-v8.js";

/* global PRELUDE_SOURCE, RUN_CODE_SOURCE */
/** prelude.js, minified, inlined at build time (scripts/build-quickjs.mjs) */
const PRELUDE = PRELUDE_SOURCE;
/** The runtime's run-code.js (workers/sandbox/runtime), the same for every execution: evaluated ahead. */
const RUN_CODE = RUN_CODE_SOURCE;

/** Linear memories, zeroed and handed out again: as many as run at once, and the next interpreter's. */
const memories = memoryKeeper();
/** @param {number} memoryBytes how many memories the keeper may own for interpreters of this limit */
const memoriesKept = (memoryBytes) => interpretersThatFit(memoryBytes) + 1;

/** @typedef {import("../../../shared/contract/sandbox").EngineRun} EngineRun */

/** QuickJS's own error for a failed allocation: the sandbox reports it as ResourceLimitError (quickjs-error.ts). */
const OUT_OF_MEMORY = { name: "InternalError", message: "out of memory" };

/**
 * An interpreter made before an execution asks for one: a fresh wasm instance of QuickJS, its
 * runtime and context, and the prelude run in it (the parts of an execution's start that do not
 * depend on the execution, ~2/3 of its CPU). It holds nothing of any execution until one takes it,
 * and serves only that one. The next is made once an execution has its own, off its path.
 */
class Interpreter {
  /** @param {number} memoryBytes the execution's memory limit: its linear memory's maximum (memories.js) */
  static async make(memoryBytes) {
    const memory = memories.take(memoryBytes);
    try {
      return await Interpreter.#makeIn(memory, memoryBytes);
    } catch (err) {
      // Nothing holds the half-made interpreter: its memory goes back as a finished one's does.
      memories.giveBack(memory, memoriesKept(memoryBytes));
      throw err;
    }
  }

  /** @param {WebAssembly.Memory & { full: boolean }} memory @param {number} memoryBytes */
  static async #makeIn(memory, memoryBytes) {
    const quickjs = await newQuickJSWASMModuleFromVariant(
      newVariant(variantBase, { wasmModule, wasmMemory: memory }),
    );
    const runtime = quickjs.newRuntime();
    runtime.setMaxStackSize(LIMITS.stackBytes);
    const vm = runtime.newContext();
    const it = new Interpreter(runtime, vm, memory, memoryBytes);
    const preludeFn = vm.unwrapResult(vm.evalCode(PRELUDE, "prelude.js", { type: "global", strict: true }));
    const methods = vm.unwrapResult(vm.evalCode(JSON.stringify(METHODS)));
    const fidelity = V8_POLYFILLS.map((source) =>
      vm.unwrapResult(vm.evalCode(source, "v8.js", { type: "global", strict: true })),
    );
    const made = vm.unwrapResult(
      vm.callFunction(preludeFn, vm.undefined, it.hostObject(), vm.newString(it.tag), methods, ...fidelity),
    );
    it.bridge = vm.getProp(made, "bridge");
    it.begin = vm.getProp(made, "begin");
    const runCode = vm.unwrapResult(vm.evalCode(RUN_CODE, "run-code.js", { type: "module" }));
    it.runAgentCode = vm.getProp(runCode, "runAgentCode");
    it.stopExecution = vm.getProp(runCode, "stopExecution");
    return it;
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

  /** The functions prelude.js gets as `worker`: each serves the execution that took this interpreter. */
  hostObject() {
    const { vm } = this;
    const worker = vm.newObject();
    for (const [name, impl] of Object.entries(WORKER_FUNCTIONS)) {
      const f = vm.newFunction(name, (...args) => {
        try {
          if (!this.exec) throw new Error("no execution has this interpreter");
          return impl(this.exec, ...args);
        } catch (err) {
          return { error: vm.newError({ name: "TypeError", message: `${name}: ${errorMessage(err)}` }) };
        }
      });
      vm.setProp(worker, name, f);
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
  if (it) memories.giveBack(it.memory, memoriesKept(it.memoryBytes));
  return Interpreter.make(memoryBytes);
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
    // The runtime and context are not disposed: the wasm instance they live in is dropped whole,
    // which also frees what a stopped execution left (disposing would assert on its live objects);
    // closed, the execution calls into it no more, so its memory can be zeroed for the next one.
    // That is done after a macrotask, once this report is on its way, with the next interpreter's
    // preparation, which takes the thread for ~5 ms (a wasm instance, the prelude, run-code.js).
    // `done` once the memory is back and the next interpreter's preparation has taken it: an
    // execution admitted before would make a memory of its own, and two grown memories (a running
    // one and a zeroed one) passed the isolate's 128 MB (scripts/bench/memory.mjs: 131 MB).
    waitUntil(
      new Promise((go) => setTimeout(go, 0)).then(() => {
        try {
          memories.giveBack(it.memory, memoriesKept(run.memoryBytes));
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
