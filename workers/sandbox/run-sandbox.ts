import { SESSION_LIMITS } from "../../shared/contract/caps";
import { ENGINE_LIMITS, fuelFor } from "../../shared/contract/engine";
import type { ExecutionError } from "../../shared/contract/execute";
import {
  type EngineRun,
  failedOutcome,
  HOST_GRACE_MS,
  IsolateReport,
  QUICKJS_WITHOUT_WORKER,
  reportCharCap,
  type SandboxBridgeApi,
  type SandboxHostApi,
  type SandboxOutcome,
  type SandboxRequest,
  sandboxError,
} from "../../shared/contract/sandbox";
import { disposeQuietly } from "../../shared/dispose";
import { AGENT_MODULE, compileAgentCode } from "./compile";
import { outcomeOf, ReportNotJson } from "./output";
import { runtimeModules, usesBridge } from "./parts";
import {
  callPython,
  callPythonWarm,
  PYTHON_MAIN,
  PYTHON_WARM_MAIN,
  PYTHON_WARM_MODULES,
  pythonModules,
} from "./python/python-isolate";
import { QUICKJS_MAIN, QUICKJS_MODULES } from "./quickjs/dist/manifest.mjs";
import { quickjsError } from "./quickjs-error";
import { skillModules } from "./skill-modules";
import { mapAgentStack } from "./stack";
import { keepWholeResult } from "./whole-result";

export const SANDBOX_COMPATIBILITY_DATE = "2026-04-01";
/** The isolate engine's main module (runtime/runtime.js), which parts.ts puts in every execution's modules. */
const ISOLATE_MAIN = "runtime.js";

/** Wall time per phase for the bench (the gateway's PhaseClock); absent in normal operation. */
export interface PhaseTimer {
  time<T>(name: string, work: () => Promise<T> | T): Promise<T>;
}

const timed = <T>(clock: PhaseTimer | undefined, name: string, work: () => Promise<T> | T) =>
  clock ? clock.time(name, work) : work();

/** The TypeScript/JavaScript isolate's entrypoint (runtime/runtime.js). */
interface IsolateEntrypoint {
  runAgentCode(options: SandboxRequest["isolate"], bridge: SandboxBridgeApi | undefined): Promise<unknown>;
}

/** The quickjs engine's warm worker (quickjs/engine.js). */
interface WarmEntrypoint {
  run(run: EngineRun, bridge: SandboxBridgeApi | undefined): Promise<unknown>;
}

/** The sandbox host run in the caller's own isolate: what a deployed gateway does by default. */
export function inProcessHost(loader: WorkerLoader, clock?: PhaseTimer): SandboxHostApi {
  return { runSandbox: (request, bridge) => runSandbox(loader, request, bridge, clock) };
}

/**
 * The sandbox side of an execution: compiles the agent's code and runs it in a fresh Worker-Loader isolate whose env is empty and
 * whose network is none; the bridge is its only way out. What the isolate reports is checked for
 * size before it is parsed and for shape after. Never throws.
 */
export async function runSandbox(
  loader: WorkerLoader,
  request: SandboxRequest,
  bridge: SandboxBridgeApi | undefined,
  clock?: PhaseTimer,
): Promise<SandboxOutcome> {
  try {
    if (request.engine === "quickjs" && !request.worker)
      return failedOutcome(sandboxError(QUICKJS_WITHOUT_WORKER));
    // Python's skills run on V8 (python-isolate.ts) whatever the engine.
    const engine = request.language === "python" ? "isolate" : request.engine;
    const skills = skillModules(request.skills, engine);
    if (!skills.ok) return failedOutcome(skills.error);
    if (request.language === "python") return await runPython(loader, request, bridge, skills.modules);
    const language = request.language;
    const compiled = await timed(clock, "compile", () =>
      compileAgentCode(request.code, language, "agent", engine),
    );
    if (!compiled.ok) return failedOutcome(compiled.error);
    const sources = [request.code, ...request.skills.map((s) => s.code)];
    const guarded = compiled.guarded || skills.guarded;
    const modules = {
      ...runtimeModules(sources, { guarded, piiSafeCuts: request.isolate.piiSafeCuts }, skills.modules),
      [AGENT_MODULE]: compiled.module,
    };
    const given = usesBridge(modules) || request.isolate.liveLogs ? bridge : undefined;
    const worker = request.engine === "quickjs" ? request.worker : undefined;
    const report = await timed(clock, "isolate", () =>
      worker
        ? callWorker(warmWorker(loader, worker.id, QUICKJS_CODE, request), request, (ep) =>
            (ep as WarmEntrypoint).run(engineRun(request, modules, worker.memoryBytes), given),
          )
        : callWorker(freshWorker(loader, { mainModule: ISOLATE_MAIN, modules }, request), request, (ep) =>
            (ep as IsolateEntrypoint).runAgentCode(request.isolate, given),
          ),
    );
    const shaped = await timed(clock, "shape", () =>
      withWhole(
        outcomeOf(report, request.isolate.maxOutputChars, request.isolate.piiSafeCuts),
        report.wholeJson,
        bridge,
      ),
    );
    if (!report.error) return shaped;
    return {
      ...shaped,
      error: locate(worker ? quickjsError(report.error, request, worker.memoryBytes) : report.error),
    };
  } catch (err) {
    return failedOutcome(hostError(err));
  }
}

/**
 * Python: in the team's warm Python worker (quickjs engine), or in a fresh isolate with pyodide's
 * files, the host's snapshot and the TypeScript skills it calls (isolate engine, or code calling them).
 */
async function runPython(
  loader: WorkerLoader,
  request: SandboxRequest,
  bridge: SandboxBridgeApi | undefined,
  skills: Record<string, string>,
): Promise<SandboxOutcome> {
  // The gateway names no warm worker for code that calls TypeScript skills (operations/execute.ts).
  const warm = request.engine === "quickjs" ? request.worker : undefined;
  const memoryBytes = ENGINE_LIMITS.pythonMemoryBytes;
  const report = await callWorker(
    warm
      ? warmWorker(loader, warm.id, PYTHON_WARM_CODE, request)
      : freshWorker(
          loader,
          { mainModule: PYTHON_MAIN, modules: await pythonModules(loader, skills) },
          request,
        ),
    request,
    (ep) => (warm ? callPythonWarm(ep, request, bridge, memoryBytes) : callPython(ep, request, bridge)),
  );
  const shaped = await withWhole(
    outcomeOf(report, request.isolate.maxOutputChars, request.isolate.piiSafeCuts),
    report.wholeJson,
    bridge,
  );
  if (!report.error) return shaped;
  if (!warm || report.error.name !== "MemoryError") return { ...shaped, error: report.error };
  const message = `Python ran out of memory (its limit is ${Math.round(memoryBytes / 1_048_576)} MB, the interpreter included); build smaller values: page through data and keep only the fields you need`;
  return { ...shaped, error: { ...report.error, message } };
}

/** The outcome, with the whole result kept in the session's workspace when the isolate sent it. */
function withWhole(
  outcome: SandboxOutcome,
  wholeJson: string | undefined,
  bridge: SandboxBridgeApi | undefined,
): Promise<SandboxOutcome> | SandboxOutcome {
  return wholeJson !== undefined && bridge ? keepWholeResult(outcome, wholeJson, bridge) : outcome;
}

type SandboxCode = { mainModule: string; modules: Record<string, WorkerLoaderModule | string> };

/** What every sandbox Dynamic Worker is: `code`, no env, no network, the execution's CPU limit. */
function workerCode(code: SandboxCode, request: SandboxRequest): WorkerLoaderWorkerCode {
  return {
    compatibilityDate: SANDBOX_COMPATIBILITY_DATE,
    mainModule: code.mainModule,
    modules: code.modules,
    env: {},
    globalOutbound: null,
    limits: { cpuMs: request.cpuMs },
  };
}

/** A fresh Dynamic Worker of `code` for this one execution (`load()`: one Dynamic Worker per execution). */
function freshWorker(loader: WorkerLoader, code: SandboxCode, request: SandboxRequest): WorkerStub {
  return loader.load(workerCode(code, request));
}

/**
 * The team's warm worker `id` (worker-pool.ts names it): loaded on first use, reused while warm. Its
 * code is the engine's and never changes under one id; the execution's code goes to it as data.
 */
function warmWorker(
  loader: WorkerLoader,
  id: string,
  code: SandboxCode,
  request: SandboxRequest,
): WorkerStub {
  return loader.get(id, () => workerCode(code, request));
}

const QUICKJS_CODE: SandboxCode = { mainModule: QUICKJS_MAIN, modules: QUICKJS_MODULES };
const PYTHON_WARM_CODE: SandboxCode = { mainModule: PYTHON_WARM_MAIN, modules: PYTHON_WARM_MODULES };

/** What the warm worker needs for one execution: the modules as data and the interpreter's bounds. */
function engineRun(request: SandboxRequest, modules: Record<string, string>, memoryBytes: number): EngineRun {
  // The runtime's main module is the isolate engine's; a warm worker has run-code.js built in.
  const { [ISOLATE_MAIN]: _main, ...perExecution } = modules;
  return {
    modules: perExecution,
    options: request.isolate,
    fuel: fuelFor(Math.min(request.isolate.timeoutMs, request.cpuMs)),
    cpuMs: request.cpuMs,
    memoryBytes,
    reportCap: reportCharCap(request.isolate),
    maxCallChars:
      Math.max(request.isolate.maxArgChars, Math.ceil((SESSION_LIMITS.maxFileBytes * 4) / 3)) + 65_536,
  };
}

/** Calls a worker's entrypoint and reads its report back (bounded in time). */
async function callWorker(
  worker: WorkerStub,
  request: SandboxRequest,
  call: (entrypoint: unknown) => Promise<unknown>,
): Promise<IsolateReport> {
  const entrypoint = worker.getEntrypoint() as unknown as Partial<Disposable>;
  const { timeoutMs } = request.isolate;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const backstop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HostTimeout(timeoutMs)), timeoutMs + HOST_GRACE_MS);
  });
  try {
    return readReport(await Promise.race([call(entrypoint), backstop]), request);
  } finally {
    clearTimeout(timer);
    disposeQuietly(entrypoint);
    disposeQuietly(worker);
  }
}

/** The isolate's report: a string no longer than the cap, then JSON, then the schema. */
function readReport(raw: unknown, request: SandboxRequest): IsolateReport {
  const cap = reportCharCap(request.isolate);
  if (typeof raw !== "string") throw new TamperedReport("was not text");
  if (raw.length > cap) throw new TamperedReport(`was ${raw.length} characters; at most ${cap} are accepted`);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new TamperedReport("was not JSON");
  }
  const parsed = IsolateReport.safeParse(json);
  if (!parsed.success) throw new TamperedReport("did not have the expected shape");
  return parsed.data;
}

class HostTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(
      `Execution timed out after ${timeoutMs} ms; await fewer or smaller calls, or pass a larger timeoutMs to execute`,
    );
    this.name = "TimeoutError";
  }
}

/** The runtime's answer was bad: the agent's code must have interfered with it. */
class TamperedReport extends Error {
  constructor(what: string) {
    super(`The sandbox's report ${what} (did the code tamper with the runtime?)`);
    this.name = "SandboxError";
  }
}

/** The error with its stack in the agent's lines, and its line from the stack when it has one there. */
function locate(error: NonNullable<IsolateReport["error"]>): ExecutionError {
  if (error.stack === undefined) return error;
  const mapped = mapAgentStack(error.stack);
  return { ...error, stack: mapped.stack, ...(mapped.line === undefined ? {} : { line: mapped.line }) };
}

function hostError(err: unknown): ExecutionError {
  if (err instanceof HostTimeout || err instanceof TamperedReport || err instanceof ReportNotJson)
    return { name: err.name, message: err.message };
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 1_000);
  if (message.includes("CPU") || /\bcpu\b.*\b(limit|exceed)/i.test(message)) {
    return {
      name: "TimeoutError",
      message: `Execution exceeded its CPU time limit (${message.slice(0, 120)}); do less computation per execution, or split the work across executions`,
    };
  }
  if (/memory/i.test(message))
    return {
      name: "ResourceLimitError",
      message: `The sandbox ran out of memory (${message.slice(0, 120)}); build smaller values: page through data and keep only the fields you need`,
    };
  return sandboxError(message);
}
