// The `quickjs` engine's warm Dynamic Worker. Its code never changes, so the gateway loads it once
// per pool slot (`LOADER.get("<team>:<engine version>:<slot>")`) and reuses it while it is warm. Each
// execution arrives as data — the runtime's modules and the agent's compiled module — and runs in a
// fresh WebAssembly instance of QuickJS: its own linear memory, its own runtime and context, dropped
// when the execution ends (made, with the prelude run in it, before the execution asks: Interpreter).
// Nothing of an execution outlives it here: this module keeps only the compiled wasm module, the
// count of executions in flight and one prepared interpreter that no execution has touched.
//
// Bounds, all deterministic and the same locally as on Cloudflare:
// - CPU: fuel, a budget of interrupt-handler calls (QuickJS calls it every 10,000 bytecode steps and
//   from its regex engine); `Date.now()` does not advance during computation on Cloudflare.
// - memory: the runtime's memory limit (`InternalError: out of memory`), stack: its stack limit.
// - wall clock: the runtime's own timer (runtime.js), which fires at awaits.
// - natives that loop without the interrupt handler: refused by prelude.js before they start.
// When fuel runs out the agent's code is unwound (QuickJS makes that error uncatchable), its timers
// and pending calls are dropped, and the runtime gets a little more fuel to report what happened
// with its logs; if even that runs out, this module reports the stop itself.

import { WorkerEntrypoint } from "cloudflare:workers";
import variantBase from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core";
import { cpuBudgetError, ENGINE_LIMITS, BRIDGE_METHODS as METHODS } from "../../../shared/contract/engine";
import wasmModule from "./quickjs.wasm";

/* global PRELUDE_SOURCE, POLYFILL_SOURCES, RUN_CODE_SOURCE */
/** prelude.js, minified, inlined at build time (scripts/build-quickjs.mjs) */
const PRELUDE = PRELUDE_SOURCE;
/** polyfills/*.js by group name, minified, inlined likewise: evaluated on first use (prelude.js) */
const POLYFILLS = POLYFILL_SOURCES;
/** The runtime's run-code.js (workers/sandbox/runtime), the same for every execution: evaluated ahead. */
const RUN_CODE = RUN_CODE_SOURCE;
const LIMITS = ENGINE_LIMITS;

const variant = newVariant(variantBase, { wasmModule });

/** The one module of an execution the engine evaluates: it links the agent's module and its parts. */
const MAIN = `import run from "agent.js";
import * as parts from "parts.js";
export { run, parts };`;

let inFlight = 0;
/** @type {Array<() => void>} */
const waiting = [];

/**
 * @typedef {import("../../../shared/contract/engine").EngineRun} EngineRun
 */

export default class WarmSandbox extends WorkerEntrypoint {
  /**
   * One execution; returns the runtime's report (JSON text) or one this module wrote. Never throws.
   * @param {EngineRun} run
   * @param {import("../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
   */
  async run(run, bridge) {
    const deadline = Date.now() + run.options.timeoutMs;
    const admitted = await admit(run.memoryBytes, deadline);
    if (!admitted) return stopReport(timeoutError(run.options.timeoutMs, "waiting for room in the sandbox"));
    try {
      return await execute(run, bridge);
    } catch (err) {
      return stopReport(engineError(err));
    } finally {
      release();
    }
  }
}

/**
 * Waits until this worker has room for one more interpreter of `memoryBytes` (its isolate has
 * 128 MB; LIMITS.workerBudgetBytes of it go to interpreters), or until the deadline.
 * @param {number} memoryBytes
 * @param {number} deadline
 */
async function admit(memoryBytes, deadline) {
  const fits = Math.max(
    1,
    Math.floor(LIMITS.workerBudgetBytes / (memoryBytes + LIMITS.instanceOverheadBytes)),
  );
  while (inFlight >= fits) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    /** @type {() => void} */
    let wake = () => {};
    const woken = new Promise((resolve) => {
      wake = () => resolve(undefined);
      waiting.push(wake);
    });
    let timer;
    await Promise.race([woken, new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
    clearTimeout(timer);
    const at = waiting.indexOf(wake);
    if (at >= 0) waiting.splice(at, 1);
  }
  inFlight++;
  return true;
}

function release() {
  inFlight--;
  waiting.shift()?.();
}

/**
 * An interpreter made before an execution asks for one: a fresh wasm instance of QuickJS, its
 * runtime and context, and the prelude run in it (the parts of an execution's start that do not
 * depend on the execution, ~2/3 of its CPU). It holds nothing of any execution until one takes it,
 * and serves only that one. The next is made once an execution has its own, off its path.
 */
class Interpreter {
  static async make() {
    const quickjs = await newQuickJSWASMModuleFromVariant(variant);
    const runtime = quickjs.newRuntime();
    runtime.setMaxStackSize(LIMITS.stackBytes);
    const vm = runtime.newContext();
    const it = new Interpreter(runtime, vm);
    const preludeFn = vm.unwrapResult(vm.evalCode(PRELUDE, "prelude.js", { type: "global", strict: true }));
    const methods = vm.unwrapResult(vm.evalCode(JSON.stringify(METHODS)));
    const made = vm.unwrapResult(
      vm.callFunction(preludeFn, vm.undefined, it.hostObject(), vm.newString(it.tag), methods),
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
   */
  constructor(runtime, vm) {
    this.runtime = runtime;
    this.vm = vm;
    /** marks byte arrays in bridge JSON (prelude.js); agent code never sees it */
    this.tag = `\ue000b${crypto.randomUUID()}:`;
    /** @type {Execution | undefined} the one execution this interpreter serves, once taken */
    this.exec = undefined;
    /** `deadline`: the wall-clock limit, checked every 8th call where the clock moves (not on Cloudflare) */
    this.fuel = { used: 0, limit: Number.POSITIVE_INFINITY, out: false, deadline: Number.POSITIVE_INFINITY };
    const fuel = this.fuel;
    runtime.setInterruptHandler(() => {
      if (++fuel.used <= fuel.limit && ((fuel.used & 7) !== 0 || Date.now() <= fuel.deadline)) return false;
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

  /** The functions prelude.js gets as `host`: each serves the execution that took this interpreter. */
  hostObject() {
    const { vm } = this;
    const host = vm.newObject();
    for (const [name, impl] of Object.entries(HOST_FUNCTIONS)) {
      const f = vm.newFunction(name, (...args) => {
        try {
          if (!this.exec) throw new Error("no execution has this interpreter");
          return impl(this.exec, ...args);
        } catch (err) {
          return { error: vm.newError({ name: "TypeError", message: `${name}: ${errorMessage(err)}` }) };
        }
      });
      vm.setProp(host, name, f);
    }
    return host;
  }
}

/** @type {Promise<Interpreter> | undefined} */
let spare;

/** The prepared interpreter, or a new one; either way a fresh one is prepared after. */
async function takeInterpreter() {
  const taken = spare ?? Interpreter.make();
  spare = undefined;
  try {
    return await taken;
  } finally {
    setTimeout(prepareSpare, 0);
  }
}

function prepareSpare() {
  if (spare) return;
  const made = Interpreter.make();
  spare = made;
  made.catch(() => {
    if (spare === made) spare = undefined;
  });
}

/**
 * @param {EngineRun} run
 * @param {import("../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
 * @returns {Promise<string>}
 */
async function execute(run, bridge) {
  const it = await takeInterpreter();
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
  const exec = new Execution(it, bridge, run);
  it.exec = exec;
  try {
    return await exec.start(() => {
      linking = false;
    });
  } finally {
    exec.close();
    // The runtime and context are not disposed: the wasm instance they live in is dropped whole,
    // which also frees what a stopped execution left (disposing would assert on its live objects).
  }
}

class Execution {
  /**
   * @param {Interpreter} it
   * @param {import("../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
   * @param {EngineRun} run
   */
  constructor(it, bridge, run) {
    this.vm = it.vm;
    this.runtime = it.runtime;
    this.it = it;
    this.bridge = bridge;
    this.run = run;
    this.fuel = it.fuel;
    this.tag = it.tag;
    /** agent-side host work in flight (timers, bridge calls): dropped when the code is stopped */
    this.pending = new Set();
    /** @type {Set<ReturnType<typeof setTimeout>>} */
    this.timers = new Set();
    this.stopped = false;
    this.closed = false;
    /** @type {((error: { name: string, message: string }) => void) | undefined} */
    this.hardStop = undefined;
    this.stopHandle = undefined;
  }

  /** @param {() => void} linked called once the modules are linked (no module loads after) */
  async start(linked) {
    const { vm, run, it } = this;
    if (it.begin) vm.callFunction(it.begin, vm.undefined);
    const bridgeHandle = /** @type {import("quickjs-emscripten-core").QuickJSHandle} */ (it.bridge);
    const evaluated = this.check(vm.evalCode(MAIN, "main.js", { type: "module" }));
    const exports = await this.settleNow(evaluated);
    linked();
    this.stopHandle = it.stopExecution;
    const options = vm.unwrapResult(vm.evalCode(`(${JSON.stringify(run.options)})`));
    const promise = this.check(
      vm.callFunction(
        /** @type {import("quickjs-emscripten-core").QuickJSHandle} */ (it.runAgentCode),
        vm.undefined,
        options,
        this.bridge ? bridgeHandle : vm.undefined,
        vm.getProp(exports, "run"),
        vm.getProp(exports, "parts"),
      ),
    );
    const stopped = new Promise((resolve) => {
      this.hardStop = (error) => resolve({ stop: error });
    });
    const settled = vm.resolvePromise(promise);
    this.afterJobs();
    const wall = setTimeout(
      () => this.hardStop?.(timeoutError(run.options.timeoutMs)),
      run.options.timeoutMs + LIMITS.reportGraceMs,
    );
    try {
      const outcome = await Promise.race([settled, stopped]);
      if ("stop" in outcome) return stopReport(outcome.stop);
      if (outcome.error) {
        const error = describe(vm, outcome.error);
        return stopReport(this.fuel.out ? this.cpuError() : error);
      }
      return this.reportText(outcome.value);
    } finally {
      clearTimeout(wall);
    }
  }

  /** The runtime's report: a string, read only when within the cap the gateway applies too. */
  reportText(handle) {
    const { vm } = this;
    if (vm.typeof(handle) !== "string") return stopReport(sandboxError("the runtime's report was not text"));
    const length = vm.getLength(handle) ?? 0;
    if (length > this.run.reportCap)
      return stopReport(sandboxError(`the runtime's report was ${length} characters`));
    const text = vm.getString(handle);
    return this.stopped ? stoppedReport(text, this.cpuError()) : text;
  }

  /** A module evaluation's result: its exports, or a promise of them run to its end now. */
  async settleNow(handle) {
    const { vm } = this;
    const state = vm.getPromiseState(handle);
    if (state.type === "fulfilled" && state.notAPromise) return handle;
    this.afterJobs();
    const settled = vm.getPromiseState(handle);
    if (settled.type === "fulfilled") return settled.value;
    if (settled.type === "rejected") throw new EngineFault(describe(vm, settled.error));
    throw new EngineFault({ name: "SandboxError", message: "the runtime's modules did not finish loading" });
  }

  /** @param {import("quickjs-emscripten-core").QuickJSContextResult<any>} result */
  check(result) {
    if (result.error) throw new EngineFault(describe(this.vm, result.error));
    return result.value;
  }

  /**
   * Runs the jobs QuickJS has queued (promise reactions), then looks at the fuel: the first time it
   * ran out, the agent's code is stopped and the runtime gets LIMITS.graceFuel to report; the second
   * time, the execution ends with this module's own report.
   */
  afterJobs() {
    if (this.closed) return;
    for (;;) {
      const result = this.runtime.executePendingJobs();
      if (result.error) {
        const failure = describe(this.vm, result.error);
        if (!this.fuel.out && failure.message !== "interrupted") continue;
      }
      if (this.fuel.out) {
        if (this.stopped) {
          this.hardStop?.(this.cpuError());
          return;
        }
        this.stopAgent();
        continue;
      }
      if (!this.runtime.hasPendingJob()) return;
    }
  }

  /** Fuel ran out: drop the agent's timers and pending calls, and let the runtime report the stop. */
  stopAgent() {
    this.stopped = true;
    this.fuel.out = false;
    this.fuel.limit = this.fuel.used + LIMITS.graceFuel;
    this.fuel.deadline = Number.POSITIVE_INFINITY;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.pending.clear();
    const { vm } = this;
    if (!this.stopHandle) return;
    const error = this.cpuError();
    const arg = vm.unwrapResult(vm.evalCode(`(${JSON.stringify(error)})`));
    vm.callFunction(this.stopHandle, vm.undefined, arg);
  }

  cpuError() {
    return cpuBudgetError(this.run.options.timeoutMs, this.run.cpuMs);
  }

  /**
   * A promise in the VM for host work: settled from `work` (a host promise) when it ends, unless the
   * code was stopped or the execution closed first.
   * @template T
   * @param {Promise<T>} work @param {(value: T) => import("quickjs-emscripten-core").QuickJSHandle} toHandle
   */
  later(work, toHandle) {
    const { vm } = this;
    const deferred = vm.newPromise();
    const token = {};
    this.pending.add(token);
    work.then(
      (value) => {
        if (this.closed || !this.pending.delete(token)) return;
        deferred.resolve(toHandle(value));
        this.afterJobs();
      },
      (err) => {
        if (this.closed || !this.pending.delete(token)) return;
        deferred.reject(vm.newError({ name: "Error", message: errorMessage(err) }));
        this.afterJobs();
      },
    );
    return deferred.handle;
  }

  /** @param {number} ms */
  sleep(ms) {
    const { vm } = this;
    const deferred = vm.newPromise();
    const token = {};
    this.pending.add(token);
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (this.closed || !this.pending.delete(token)) return;
        deferred.resolve(vm.undefined);
        this.afterJobs();
      },
      Math.max(0, Math.min(ms || 0, 2 ** 31 - 1)),
    );
    this.timers.add(timer);
    return deferred.handle;
  }

  /**
   * One bridge call: the arguments are JSON text from the prelude with byte arrays beside it (`tag +
   * index` in the text); the answer goes back the same way, as `[text, ...buffers]`. A call made
   * before the code was stopped is dropped when its answer comes.
   * @param {string} method @param {string} argsText @param {Uint8Array[]} buffers
   */
  call(method, argsText, buffers) {
    const { vm } = this;
    if (!this.bridge || !(METHODS.includes(method) || method === "fetch"))
      throw new Error(`no bridge method ${method}`);
    const deferred = vm.newPromise();
    const token = {};
    this.pending.add(token);
    const settle = (ok, value) => {
      if (this.closed || !this.pending.delete(token)) return;
      if (ok) {
        const answer = vm.newArray();
        vm.setProp(answer, 0, vm.newString(value.text));
        value.buffers.forEach((b, i) => {
          vm.setProp(answer, i + 1, vm.newArrayBuffer(b));
        });
        deferred.resolve(answer);
      } else deferred.reject(vm.newError({ name: "Error", message: value }));
      this.afterJobs();
    };
    const args = JSON.parse(argsText, (_k, v) =>
      typeof v === "string" && v.startsWith(this.tag) ? buffers[Number(v.slice(this.tag.length))] : v,
    );
    this.invoke(method, Array.isArray(args) ? args : []).then(
      (answer) => settle(true, answer),
      (err) => settle(false, errorMessage(err)),
    );
    return deferred.handle;
  }

  /** @param {string} method @param {unknown[]} args @returns {Promise<{ text: string, buffers: ArrayBuffer[] }>} */
  async invoke(method, args) {
    const bridge = /** @type {Record<string, (...a: unknown[]) => Promise<unknown>>} */ (
      /** @type {unknown} */ (this.bridge)
    );
    /** @type {ArrayBuffer[]} */
    const buffers = [];
    const encode = (value) => {
      const text = JSON.stringify(value ?? null, (_k, v) => {
        if (!(v instanceof ArrayBuffer) && !ArrayBuffer.isView(v)) return v;
        const view =
          v instanceof ArrayBuffer ? new Uint8Array(v) : new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
        buffers.push(view.slice().buffer);
        return this.tag + (buffers.length - 1);
      });
      return { text: text ?? "null", buffers };
    };
    if (method === "fetch") {
      const spec =
        /** @type {{ url: string, method: string, headers: [string, string][], redirect: RequestRedirect, body?: Uint8Array }} */ (
          args[0]
        );
      const response = /** @type {Response} */ (
        await bridge.fetch(
          new Request(spec.url, {
            method: spec.method,
            headers: spec.headers,
            body: spec.body,
            redirect: spec.redirect,
          }),
        )
      );
      return encode({
        status: response.status,
        statusText: response.statusText,
        url: response.url,
        redirected: response.redirected,
        headers: [...response.headers],
        body: new Uint8Array(await response.arrayBuffer()),
      });
    }
    return encode(await bridge[method](...args));
  }

  close() {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.pending.clear();
  }
}

/** A string from the VM, its length checked before it is copied. */
function str(vm, handle, max, what) {
  if (vm.typeof(handle) !== "string") throw new Error(`${what} must be a string`);
  const length = vm.getLength(handle) ?? 0;
  if (length > max) throw new Error(`${what} is ${length} characters; at most ${max}`);
  return vm.getString(handle);
}

/** An ArrayBuffer's bytes from the VM, copied out, its size checked first. */
function buffer(vm, handle, max, what) {
  const length = vm.getNumber(vm.getProp(handle, "byteLength"));
  if (!(length <= max)) throw new Error(`${what} is too large`);
  const view = vm.getArrayBuffer(handle);
  const copy = view.value.slice();
  view.dispose();
  return copy;
}

/**
 * What prelude.js (and its polyfill groups) may ask the host, as `host.<name>(…)`. Each reads from
 * the VM only what it has bounded: strings and buffers up to the interpreter's memory limit, bridge
 * arguments to the run's `maxCallChars`, URLs to LIMITS.maxUrlChars.
 * @type {Record<string, (exec: Execution, ...args: import("quickjs-emscripten-core").QuickJSHandle[]) => any>}
 */
const HOST_FUNCTIONS = {
  sleep: (exec, ms) => exec.sleep(exec.vm.getNumber(ms)),
  call: (exec, method, argsText, buffers) => {
    const { vm } = exec;
    const count = vm.getLength(buffers) ?? 0;
    if (count > LIMITS.maxCallBuffers)
      throw new Error(`at most ${LIMITS.maxCallBuffers} byte arrays per call`);
    const bytes = [];
    for (let i = 0; i < count; i++)
      bytes.push(new Uint8Array(buffer(vm, vm.getProp(buffers, i), exec.run.memoryBytes, "data")));
    return exec.call(
      str(vm, method, 64, "method"),
      str(vm, argsText, exec.run.maxCallChars, "arguments"),
      bytes,
    );
  },
  polyfill: (exec, group) => {
    const name = str(exec.vm, group, 16, "group");
    if (!Object.hasOwn(POLYFILLS, name)) throw new Error(`no polyfill group ${name}`);
    return exec.vm.newString(POLYFILLS[name]);
  },
  encodeUtf8: (exec, text) =>
    exec.vm.newArrayBuffer(new TextEncoder().encode(str(exec.vm, text, exec.run.memoryBytes, "text")).buffer),
  decodeUtf8: (exec, bytes, fatal) => {
    const { vm } = exec;
    const data = buffer(vm, bytes, exec.run.memoryBytes, "data");
    try {
      return vm.newString(new TextDecoder("utf-8", { fatal: vm.dump(fatal) === true }).decode(data));
    } catch (err) {
      if (err instanceof TypeError) return vm.null;
      throw err;
    }
  },
  btoa: (exec, text) => {
    const input = str(exec.vm, text, exec.run.memoryBytes, "text");
    try {
      return exec.vm.newString(btoa(input));
    } catch {
      return exec.vm.null;
    }
  },
  atob: (exec, text) => {
    const input = str(exec.vm, text, exec.run.memoryBytes, "text");
    try {
      return exec.vm.newString(atob(input));
    } catch {
      return exec.vm.null;
    }
  },
  random: (exec, n) =>
    exec.vm.newArrayBuffer(
      crypto.getRandomValues(new Uint8Array(Math.min(exec.vm.getNumber(n), 65_536))).buffer,
    ),
  uuid: (exec) => exec.vm.newString(crypto.randomUUID()),
  digest: (exec, algorithm, data) => {
    const { vm } = exec;
    const name = str(vm, algorithm, 16, "algorithm").toUpperCase();
    if (!DIGESTS.has(name))
      throw new Error(`unsupported algorithm ${name}; use SHA-1, SHA-256, SHA-384 or SHA-512`);
    const bytes = buffer(vm, data, exec.run.memoryBytes, "data");
    return exec.later(crypto.subtle.digest(name, bytes), (out) => vm.newArrayBuffer(out));
  },
  parseUrl: (exec, input, base) => {
    const { vm } = exec;
    const href = str(vm, input, LIMITS.maxUrlChars, "url");
    const from = vm.typeof(base) === "string" ? str(vm, base, LIMITS.maxUrlChars, "base") : undefined;
    const url = URL.canParse(href, from) ? new URL(href, from) : undefined;
    return url ? vm.newString(JSON.stringify(urlParts(url))) : vm.null;
  },
  setUrl: (exec, href, part, value) => {
    const { vm } = exec;
    const url = new URL(str(vm, href, LIMITS.maxUrlChars, "url"));
    const name = str(vm, part, 16, "part");
    if (!URL_SETTABLE.has(name)) throw new Error(`cannot set ${name}`);
    url[name] = str(vm, value, LIMITS.maxUrlChars, "value");
    return vm.newString(JSON.stringify(urlParts(url)));
  },
};

const DIGESTS = new Set(["SHA-1", "SHA-256", "SHA-384", "SHA-512"]);
const URL_SETTABLE = new Set([
  "href",
  "protocol",
  "username",
  "password",
  "host",
  "hostname",
  "port",
  "pathname",
  "search",
  "hash",
]);
/** @param {URL} url */
function urlParts(url) {
  const { href, protocol, username, password, host, hostname, port, pathname, search, hash, origin } = url;
  return { href, protocol, username, password, host, hostname, port, pathname, search, hash, origin };
}

/** An error value from the VM as `{ name, message, stack? }`, bounded. */
function describe(vm, handle) {
  const dumped = vm.dump(handle);
  if (dumped && typeof dumped === "object") {
    const { name, message, stack } = /** @type {Record<string, unknown>} */ (dumped);
    return {
      name: String(name ?? "Error").slice(0, 80),
      message: String(message ?? "").slice(0, 2_000),
      ...(typeof stack === "string" ? { stack: stack.slice(0, 8_000) } : {}),
    };
  }
  return { name: "Error", message: String(dumped).slice(0, 2_000) };
}

class EngineFault extends Error {
  /** @param {{ name: string, message: string }} error */
  constructor(error) {
    super(error.message);
    this.error = error;
  }
}

/** @param {unknown} err */
function engineError(err) {
  if (err instanceof EngineFault) return err.error;
  if (err instanceof RangeError && /call stack/.test(errorMessage(err)))
    return {
      name: "RangeError",
      message: "Maximum call stack size exceeded (stack overflow); recurse less deeply",
    };
  return sandboxError(errorMessage(err));
}

/** @param {string} what */
function sandboxError(what) {
  return { name: "SandboxError", message: `The sandbox failed: ${what.slice(0, 500)}` };
}

/** @param {number} timeoutMs @param {string} [while_] */
function timeoutError(timeoutMs, while_) {
  return {
    name: "TimeoutError",
    message: `Execution timed out after ${timeoutMs} ms${while_ ? ` ${while_}` : ""}; await fewer or smaller calls, or pass a larger timeoutMs to execute`,
  };
}

/** @param {unknown} err */
function errorMessage(err) {
  return (err instanceof Error ? err.message : String(err)).slice(0, 1_000);
}

/**
 * The runtime's report of an execution whose fuel ran out: its logs and warnings stand, its result
 * and error do not (the interrupt may have unwound the runtime's own code too, whatever it then said).
 * @param {string} text @param {{ name: string, message: string }} error
 */
function stoppedReport(text, error) {
  try {
    const { logs, logsCut, warnings, skillRuns } = JSON.parse(text);
    return JSON.stringify({
      logs,
      logsCut,
      ...(warnings ? { warnings } : {}),
      ...(skillRuns ? { skillRuns } : {}),
      error,
    });
  } catch {
    return stopReport(error);
  }
}

/** A report this module writes when the runtime could not: no result, no logs, the error. */
function stopReport(error) {
  return JSON.stringify({ logs: [], logsCut: false, error });
}
