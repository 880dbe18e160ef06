// Main module of a Python isolate. The host loads it with pyodide's files (dist/manifest.mjs) and,
// once it has one, a memory snapshot; then calls runAgentCode(options, code, bridge) once over RPC, or
// snapshot() to make that snapshot. runAgentCode() returns one JSON text shaped like the TypeScript
// runtime's report (IsolateReport in shared/contract/sandbox.ts) and never throws. As for
// TypeScript, env is empty and globalOutbound null: the bridge argument is the only way out.
// The TypeScript runtime's modules (all parts: bridge-io, guard, invoke-skills, session, tools) set up
// the globals of the skills (TypeScript modules) that Python code calls.
import { WorkerEntrypoint } from "cloudflare:workers";
import { BY_NAME } from "./precompiled.js";
import { BASE_URL } from "./shim.js"; // first: pyodide decides its environment when imported
import "./pyodide.asm.js"; // defines globalThis._createPyodideModule
import globalsSource from "./_sandbox_globals.py";
import guardSource from "./_sandbox_guard.py";
import jsonSource from "./_sandbox_json.py";
import { toJsonText, unwrap } from "./bridge-io.js";
import driverSource from "./driver.py";
import { configureGuard } from "./guard.js";
import { installSkills } from "./invoke-skills.js";
import { makeBridgeFunctions } from "./py-bridge.js";
import pyodideWasm from "./pyodide.asm.wasm";
import { loadPyodide } from "./pyodide.mjs";
import lockText from "./pyodide-lock.json";
import stdlibZip from "./python_stdlib.zip";
import { cutOutsidePii, liveLog, pendingCalls, SESSION_LIMITS, shapeOutput } from "./python-support.js";
import { installSession } from "./session.js";
import loadedSkills from "./skills.js";
import snapshotData from "./snapshot.js";
import { installTools } from "./tools.js";

const LOG_LINES = 10_000;
/** Characters of JSON a Python result may have before it is cut (RESULT_WALK_CHARS in shared/contract/caps.ts). */
const RESULT_CHARS = 5_000_000;

// pyodide fetches the stdlib zip (answered from the data module) and prefetches the wasm (unused).
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (url === `${BASE_URL}python_stdlib.zip`) return new Response(stdlibZip);
  if (url === `${BASE_URL}pyodide.asm.wasm`) return new Response(null, { status: 404 });
  return realFetch(input, init);
};

// CPython's wasm was compiled when the isolate was loaded; instantiate it instead of compiling bytes.
const createModule = globalThis._createPyodideModule;
globalThis._createPyodideModule = (settings) => {
  settings.instantiateWasm = (imports, receiveInstance) => {
    imports.sentinel = new WebAssembly.Instance(BY_NAME.sentinel, {}).exports;
    const instance = new WebAssembly.Instance(pyodideWasm, imports);
    receiveInstance(instance, pyodideWasm);
    return instance.exports;
  };
  return createModule(settings);
};

/** @param {boolean} makeSnapshot */
async function boot(makeSnapshot) {
  const snapshot = makeSnapshot ? null : snapshotData;
  const py = await loadPyodide({
    indexURL: BASE_URL,
    packageBaseUrl: BASE_URL,
    lockFileContents: lockText,
    env: { HOME: "/home/pyodide" },
    _makeSnapshot: makeSnapshot,
    ...(snapshot ? { _loadSnapshot: new Uint8Array(snapshot) } : {}),
  });
  if (snapshot) {
    // A snapshot made without wasm-GC carries a zero count-args pointer: put the live one back.
    const M = py._module;
    const field = M.__PyRuntime + M.HEAP32[M.__PyEM_EMSCRIPTEN_COUNT_ARGS_OFFSET >> 2];
    if (M._PyEM_CountArgsPtr) M.HEAP32[field >> 2] = M._PyEM_CountArgsPtr;
    py.pyimport("_sandbox").after_restore();
  } else {
    // _sandbox imports the other three: all are in sys.modules of the snapshot made from here.
    py.FS.writeFile("/home/pyodide/_sandbox.py", driverSource);
    py.FS.writeFile("/home/pyodide/_sandbox_globals.py", globalsSource);
    py.FS.writeFile("/home/pyodide/_sandbox_guard.py", guardSource);
    py.FS.writeFile("/home/pyodide/_sandbox_json.py", jsonSource);
    py.runPython("import _sandbox");
    py.pyimport("_sandbox").preimport();
  }
  return py;
}

let started = false;

export default class PythonSandbox extends WorkerEntrypoint {
  /** A memory snapshot of a booted interpreter with the driver and common modules imported. */
  async snapshot() {
    const py = await boot(true);
    const snap = py.makeMemorySnapshot();
    return snap.buffer.slice(snap.byteOffset, snap.byteOffset + snap.byteLength);
  }

  /**
   * @param {import("../../../../shared/contract/sandbox").IsolateOptions} options
   * @param {string} code
   * @param {import("../../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
   * @returns {Promise<string>}
   */
  async runAgentCode(options, code, bridge) {
    if (started) throw new Error("runAgentCode() may be called once per isolate");
    started = true;
    const logs = [];
    let chars = 0;
    let dropped = 0;
    const live = options.liveLogs ? liveLog(bridge) : undefined;
    const log = (/** @type {string} */ level, /** @type {string} */ text) => {
      if (chars > options.maxOutputChars * 2 || logs.length >= LOG_LINES) {
        dropped++;
        return;
      }
      const line = `[${level}] ${text}`.slice(0, options.maxOutputChars * 2);
      chars += line.length;
      logs.push(line);
      live?.push(line);
    };
    const pending = pendingCalls();
    /** @type {{ resultJson?: string, warnings?: string[], error?: { name: string, message: string, stack?: string, line?: number } }} */
    let ran;
    try {
      const toJson = (/** @type {unknown} */ value, /** @type {string} */ what) =>
        toJsonText(value, options.maxArgChars, what);
      const callSkill = installSkills(
        bridge,
        loadedSkills,
        options.missingSkills,
        toJson,
        unwrap,
        pending.track,
      );
      installTools(bridge, options.maxArgChars, callSkill, pending.track);
      installSession(bridge, unwrap, pending.track);
      configureGuard(options.timeoutMs, options.maxSteps);
      const py = await boot(false);
      py.setStdout({ batched: (s) => log("log", s) });
      py.setStderr({ batched: (s) => log("error", s) });
      const driver = py.pyimport("_sandbox");
      const report = await driver.run(
        code,
        py.toPy({
          timeoutMs: options.timeoutMs,
          maxSteps: options.maxSteps,
          maxChars: RESULT_CHARS,
          maxArgChars: options.maxArgChars,
        }),
        makeBridgeFunctions(bridge, callSkill),
        log,
      );
      ran = JSON.parse(report);
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 1_000);
      const error = /maximum call stack/i.test(message)
        ? { name: "RecursionError", message: `Python recursion exhausted the stack (${message})` }
        : { name: "SandboxError", message: `The Python runtime failed: ${message}` };
      ran = { error };
    }
    await live?.flush();
    const result = ran.resultJson === undefined ? undefined : JSON.parse(ran.resultJson);
    const shaped = shapeOutput(
      { result, logs, logsDropped: dropped },
      Math.max(0, options.maxOutputChars - (ran.error?.stack?.length ?? 0)),
      options.piiSafeCuts ? cutOutsidePii : undefined,
    );
    const warnings = [...(ran.warnings ?? []), ...(await pending.settle(Promise.resolve()))];
    const keepWhole =
      shaped.truncation && options.keepWholeResult && ran.resultJson.length <= SESSION_LIMITS.maxFileBytes;
    return JSON.stringify({
      ...(shaped.resultJson === undefined ? {} : { resultJson: shaped.resultJson }),
      ...(keepWhole ? { wholeJson: ran.resultJson } : {}),
      ...(shaped.truncation ? { truncation: shaped.truncation } : {}),
      logs: shaped.logs,
      logsCut: shaped.logsCut,
      ...(warnings.length ? { warnings: warnings.slice(0, 6) } : {}),
      ...(ran.error ? { error: ran.error } : {}),
    });
  }
}
