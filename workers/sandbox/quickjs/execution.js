// One execution in a taken interpreter: links its modules, calls the runtime's runAgentCode, drives
// QuickJS's job queue whenever work outside the interpreter settles, and stops the code when its fuel
// runs out.
import {
  cpuBudgetError,
  QUICKJS_LIMITS as LIMITS,
  BRIDGE_METHODS as METHODS,
} from "../../../shared/contract/engine";
import {
  describe,
  EngineFault,
  errorMessage,
  sandboxError,
  stoppedReport,
  stopReport,
  timeoutError,
} from "./reports.js";

/** The one module of an execution the engine evaluates: it links the agent's module and its parts. */
export const MAIN = `import run from "agent.js";
import * as parts from "parts.js";
export { run, parts };`;

/** @typedef {import("../../../shared/contract/sandbox").EngineRun} EngineRun */

export class Execution {
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
    /** the agent's work outside the interpreter (timers, bridge calls): dropped when the code is stopped */
    this.pending = new Set();
    /** @type {Set<ReturnType<typeof setTimeout>>} */
    this.timers = new Set();
    this.stopped = false;
    this.closed = false;
    /** @type {((error: { name: string, message: string }) => void) | undefined} */
    this.hardStop = undefined;
    /** @type {string | undefined} where the code was when its fuel ran out */
    this.stopStack = undefined;
  }

  /** @param {() => void} linked called once the modules are linked (no module loads after) */
  async start(linked) {
    const { vm, run, it } = this;
    if (it.begin) {
      const tag = vm.newString(it.tag);
      vm.callFunction(it.begin, vm.undefined, tag);
      tag.dispose();
    }
    const bridgeHandle = /** @type {import("quickjs-emscripten-core").QuickJSHandle} */ (it.bridge);
    const evaluated = this.check(vm.evalCode(MAIN, "main.js", { type: "module" }));
    const exports = await this.settleNow(evaluated);
    linked();
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
        if (this.fuel.out) this.stopStack ??= error.stack;
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
      // A job's error (one the code threw, or the interrupt) ends only that job: what counts is the fuel.
      const done = this.runtime.executePendingJobs();
      // The interrupt's error says where the code was when its fuel ran out: the stop's line.
      if (done.error && this.fuel.out && !this.stopped)
        this.stopStack ??= describe(this.vm, done.error).stack;
      if (this.fuel.out) {
        // A full memory (interpreter.js) leaves the runtime no room to report: the engine does.
        if (this.stopped || this.it.memory.full) {
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
    const { vm, it } = this;
    if (!it.stopExecution) return;
    const arg = vm.unwrapResult(vm.evalCode(`(${JSON.stringify(this.cpuError())})`));
    vm.callFunction(it.stopExecution, vm.undefined, arg);
  }

  cpuError() {
    const error = cpuBudgetError(this.run.options.timeoutMs, this.run.cpuMs);
    return this.stopStack ? { ...error, stack: this.stopStack } : error;
  }

  /**
   * A promise in the VM for work outside it: settled from `work` (the worker's promise) when it ends,
   * unless the code was stopped or the execution closed first.
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
    /** @type {(value: undefined) => void} */
    let wake = () => {};
    const elapsed = new Promise((resolve) => {
      wake = resolve;
    });
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        wake(undefined);
      },
      Math.max(0, Math.min(ms || 0, 2 ** 31 - 1)),
    );
    this.timers.add(timer);
    return this.later(elapsed, () => this.vm.undefined);
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
    const args = JSON.parse(argsText, (_k, v) =>
      typeof v === "string" && v.startsWith(this.tag) ? buffers[Number(v.slice(this.tag.length))] : v,
    );
    return this.later(this.invoke(method, Array.isArray(args) ? args : []), (answer) => {
      const handle = vm.newArray();
      vm.setProp(handle, 0, vm.newString(answer.text));
      answer.buffers.forEach((b, i) => {
        vm.setProp(handle, i + 1, vm.newArrayBuffer(b));
      });
      return handle;
    });
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
