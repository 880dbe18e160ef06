import type { ExecuteInput, ExecuteResult, ExecutionError } from "../../shared/contract/execute";
import { AGENT_MODULE, compileAgentCode } from "./compile";
import { RUNTIME_MODULES } from "./generated";
import type { SandboxLimits } from "./limits";
import { RunOutcome, type SandboxEntrypoint } from "./outcome";
import { shapeOutput } from "./output";
import { mapAgentStack } from "./stack";

export const SANDBOX_COMPATIBILITY_DATE = "2026-04-01";
/** Time the host waits past the limit for the isolate to report before giving up on it. */
const HOST_GRACE_MS = 2_000;
const MAX_ERROR_MESSAGE = 2_000;
const MAX_ERROR_STACK = 4_000;
const MAX_LISTED_CALLS = 1_000;

export interface ExecutorDeps {
  loader: WorkerLoader;
  limits: SandboxLimits;
  /** Capabilities handed to the isolate as its `env` (RPC stubs only: never secrets or bindings). */
  sandboxEnv?: Record<string, unknown>;
  /** Where the isolate's fetch() goes: null (the default) blocks the network. */
  globalOutbound?: Fetcher | null;
}

/**
 * Runs agent code in a fresh Worker-Loader isolate and returns the contract's result object.
 * Never throws: every failure, ours or the code's, comes back as `error`.
 */
export async function executeCode(deps: ExecutorDeps, input: ExecuteInput): Promise<ExecuteResult> {
  const started = Date.now();
  const finish = (parts: {
    result?: unknown;
    logs?: string[];
    error?: ExecutionError;
    truncated?: boolean;
    calls?: RunOutcome["calls"];
  }) => ({
    ...(parts.result === undefined ? {} : { result: parts.result }),
    logs: parts.logs ?? [],
    ...(parts.error ? { error: clip(parts.error) } : {}),
    stats: {
      durationMs: Date.now() - started,
      toolCalls: parts.calls?.length ?? 0,
      truncated: parts.truncated ?? false,
      ...(parts.calls?.length ? { calls: parts.calls.slice(0, MAX_LISTED_CALLS) } : {}),
    },
  });
  try {
    const prepared = prepare(deps.limits, input);
    if ("error" in prepared) return finish({ error: prepared.error });
    const outcome = await runIsolate(deps, prepared.module, prepared.timeoutMs);
    const shaped = shapeOutput(outcome, deps.limits.maxOutputChars);
    return finish({
      ...shaped,
      calls: outcome.calls,
      ...(outcome.error ? { error: locate(outcome.error) } : {}),
    });
  } catch (err) {
    return finish({ error: hostError(err) });
  }
}

function prepare(
  limits: SandboxLimits,
  input: ExecuteInput,
): { module: string; timeoutMs: number } | { error: ExecutionError } {
  const language = input.language ?? "typescript";
  if (language === "python") {
    return {
      error: {
        name: "UnsupportedLanguageError",
        message:
          'language "python" is not available on this deployment yet; use "typescript" or "javascript"',
      },
    };
  }
  if (input.code.length > limits.maxCodeChars) {
    return {
      error: {
        name: "LimitError",
        message: `code is ${input.code.length} characters; the limit is ${limits.maxCodeChars} (EXEC_MAX_CODE_CHARS)`,
      },
    };
  }
  const timeoutMs = input.timeoutMs ?? limits.timeoutMs;
  if (timeoutMs > limits.maxTimeoutMs) {
    return {
      error: {
        name: "LimitError",
        message: `timeoutMs ${timeoutMs} is above the maximum of ${limits.maxTimeoutMs} ms (EXEC_MAX_TIMEOUT_MS)`,
      },
    };
  }
  const compiled = compileAgentCode(input.code, language);
  return compiled.ok ? { module: compiled.module, timeoutMs } : { error: compiled.error };
}

async function runIsolate(deps: ExecutorDeps, agentModule: string, timeoutMs: number): Promise<RunOutcome> {
  const worker = deps.loader.load({
    compatibilityDate: SANDBOX_COMPATIBILITY_DATE,
    mainModule: "runtime.js",
    modules: { ...RUNTIME_MODULES, [AGENT_MODULE]: agentModule },
    env: { ...deps.sandboxEnv },
    globalOutbound: deps.globalOutbound ?? null,
    limits: { cpuMs: deps.limits.cpuMs },
  });
  const entrypoint = worker.getEntrypoint() as unknown as SandboxEntrypoint & Partial<Disposable>;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const backstop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HostTimeout(timeoutMs)), timeoutMs + HOST_GRACE_MS);
  });
  try {
    const raw = await Promise.race([
      entrypoint.run({
        timeoutMs,
        maxSteps: deps.limits.maxSteps,
        maxOutputChars: deps.limits.maxOutputChars,
        maxToolCalls: deps.limits.maxToolCalls,
      }),
      backstop,
    ]);
    const parsed = RunOutcome.safeParse(raw);
    if (!parsed.success)
      throw new Error("the sandbox runtime returned a malformed outcome (was it tampered with?)");
    return parsed.data;
  } finally {
    clearTimeout(timer);
    disposeQuietly(entrypoint);
    disposeQuietly(worker);
  }
}

class HostTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Execution timed out after ${timeoutMs} ms`);
    this.name = "TimeoutError";
  }
}

function locate(error: NonNullable<RunOutcome["error"]>): ExecutionError {
  if (error.stack === undefined) return error;
  const mapped = mapAgentStack(error.stack);
  return {
    ...error,
    stack: mapped.stack,
    ...(error.line === undefined && mapped.line !== undefined ? { line: mapped.line } : {}),
  };
}

function hostError(err: unknown): ExecutionError {
  if (err instanceof HostTimeout) return { name: "TimeoutError", message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  if (/cpu/i.test(message) && /(limit|exceed)/i.test(message)) {
    return { name: "TimeoutError", message: `Execution exceeded its CPU time limit (${message})` };
  }
  if (/memory/i.test(message))
    return { name: "ResourceLimitError", message: `The sandbox ran out of memory (${message})` };
  return { name: "SandboxError", message: `The sandbox failed: ${message}` };
}

function clip(error: ExecutionError): ExecutionError {
  return {
    ...error,
    message:
      error.message.length > MAX_ERROR_MESSAGE
        ? `${error.message.slice(0, MAX_ERROR_MESSAGE)}… [cut]`
        : error.message,
    ...(error.stack && error.stack.length > MAX_ERROR_STACK
      ? { stack: `${error.stack.slice(0, MAX_ERROR_STACK)}… [cut]` }
      : {}),
  };
}

function disposeQuietly(resource: unknown): void {
  const dispose = (resource as Partial<Disposable> | null)?.[Symbol.dispose];
  if (typeof dispose !== "function") return;
  try {
    dispose.call(resource);
  } catch {}
}
