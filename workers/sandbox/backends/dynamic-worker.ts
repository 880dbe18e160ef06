import type { ExecutionError } from "../../../shared/contract/execute";
import {
  HOST_GRACE_MS,
  IsolateReport,
  reportCharCap,
  type SandboxRequest,
  sandboxError,
} from "../../../shared/contract/sandbox";
import { disposeQuietly } from "../../../shared/dispose";
import { ReportNotJson } from "../output";

export const SANDBOX_COMPATIBILITY_DATE = "2026-04-01";

/** A sandbox Dynamic Worker's code: its main module and the modules it may import. */
export type SandboxCode = { mainModule: string; modules: Record<string, WorkerLoaderModule | string> };

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
export function freshWorker(loader: WorkerLoader, code: SandboxCode, request: SandboxRequest): WorkerStub {
  return loader.load(workerCode(code, request));
}

/**
 * The team's warm worker `id` (the gateway's worker-pool.ts names it): loaded on first use, reused
 * while warm. Its code is the engine's and never changes under one id; the execution's code goes to
 * it as data.
 */
export function warmWorker(
  loader: WorkerLoader,
  id: string,
  code: SandboxCode,
  request: SandboxRequest,
): WorkerStub {
  return loader.get(id, () => workerCode(code, request));
}

/** Calls a worker's entrypoint and reads its report back (bounded in time). */
export async function callWorker(
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

/** The Worker's report: a string no longer than the cap, then JSON, then the schema. */
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

/** What a failure thrown while executing (ours, the Worker's, or its limits') tells the agent. */
export function hostError(err: unknown): ExecutionError {
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
