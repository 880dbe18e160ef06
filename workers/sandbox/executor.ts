import type { ExecuteInput, ExecuteResult, ExecutionError } from "../../shared/contract/execute";
import {
  type LoadedSkill,
  type SandboxBridgeApi,
  type SandboxHostApi,
  SandboxOutcome,
  type SandboxRequest,
} from "../../shared/contract/sandbox";
import { HOST_GRACE_MS, type PhaseTimer, runSandbox } from "./host";
import type { SandboxLimits } from "./limits";

const MAX_LISTED_CALLS = 1_000;
const PING_TIMEOUT_MS = 1_000;
/** A host in another process that missed an answer: ask it first before sending it code again. */
let hostSuspect = false;

/** One call the sandbox made through the bridge, as `stats.calls` lists it. */
export interface CallRecord {
  name: string;
  ms: number;
  ok: boolean;
}

/** What the gateway counted while the code ran; `close()` refuses every later bridge call. */
export interface CallLedger {
  readonly calls: readonly CallRecord[];
  readonly fetches: number;
  close(): void;
}

export interface ExecutorDeps {
  /** where isolates are made: in this isolate (`inProcessHost`) or the SANDBOX_HOST service */
  host: SandboxHostApi;
  limits: SandboxLimits;
  /** the object the isolate's code reaches the gateway through (tools, discovery, egress) */
  bridge?: SandboxBridgeApi;
  ledger?: CallLedger;
  /** fetch() goes to the bridge (the team's egress hosts) instead of failing */
  egress?: boolean;
  /** the skills the code names: loaded into the isolate, or missing from the team's store */
  skills?: { loaded: LoadedSkill[]; missing: string[] };
}

/** The sandbox host run in the caller's own isolate: what a deployed gateway does by default. */
export function inProcessHost(loader: WorkerLoader, clock?: PhaseTimer): SandboxHostApi {
  return { run: (request, bridge) => runSandbox(loader, request, bridge, clock) };
}

/**
 * Runs agent code in a fresh isolate and returns the contract's result object. The host's answer
 * is checked like any other input; `stats` come from the gateway's own ledger, not the isolate.
 * Never throws: every failure, ours or the code's, comes back as `error`.
 */
export async function executeCode(deps: ExecutorDeps, input: ExecuteInput): Promise<ExecuteResult> {
  const started = Date.now();
  let outcome: SandboxOutcome;
  const prepared = prepare(deps, input);
  if ("error" in prepared) outcome = { logs: [], error: prepared.error, truncated: false };
  else outcome = await dispatch(deps, prepared);
  deps.ledger?.close();
  const calls = deps.ledger?.calls ?? [];
  const fetches = deps.ledger?.fetches ?? 0;
  return {
    ...(outcome.result === undefined ? {} : { result: outcome.result }),
    logs: outcome.logs,
    ...(outcome.error ? { error: outcome.error } : {}),
    stats: {
      durationMs: Date.now() - started,
      toolCalls: calls.length,
      truncated: outcome.truncated,
      ...(calls.length ? { calls: calls.slice(0, MAX_LISTED_CALLS) } : {}),
      ...(fetches ? { fetches } : {}),
    },
  };
}

async function dispatch(deps: ExecutorDeps, request: SandboxRequest): Promise<SandboxOutcome> {
  if (hostSuspect && deps.host.ping) {
    if (!(await answers(deps.host.ping()))) {
      return {
        logs: [],
        truncated: false,
        error: {
          name: "SandboxUnavailableError",
          message:
            "The sandbox host is not answering (an earlier execution may have hung it; it is being restarted). Retry in a few seconds",
        },
      };
    }
    hostSuspect = false;
  }
  const limit = request.isolate.timeoutMs + 2 * HOST_GRACE_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const backstop = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), limit);
  });
  try {
    const raw = await Promise.race([deps.host.run(request, deps.bridge), backstop]);
    if (raw === "timeout") {
      hostSuspect = true;
      return {
        logs: [],
        truncated: false,
        error: {
          name: "TimeoutError",
          message: `Execution timed out after ${request.isolate.timeoutMs} ms (the sandbox host did not answer)`,
        },
      };
    }
    const parsed = SandboxOutcome.safeParse(raw);
    if (parsed.success) return parsed.data;
    return {
      logs: [],
      truncated: false,
      error: sandboxError("the sandbox host answered with a malformed outcome"),
    };
  } catch (err) {
    hostSuspect = true;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    return {
      logs: [],
      truncated: false,
      error: sandboxError(
        `the sandbox host stopped while running this code (${message}). Locally, code stuck in one native call or using too much memory takes the host process down; it restarts by itself, so retry shortly`,
      ),
    };
  } finally {
    clearTimeout(timer);
  }
}

async function answers(ping: Promise<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      ping.then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function sandboxError(message: string): ExecutionError {
  return { name: "SandboxError", message: `The sandbox failed: ${message}` };
}

function prepare(deps: ExecutorDeps, input: ExecuteInput): SandboxRequest | { error: ExecutionError } {
  const { limits } = deps;
  const language = input.language ?? "typescript";
  if (input.code.length > limits.maxCodeChars) {
    return {
      error: {
        name: "LimitError",
        message: `code is ${input.code.length} characters; the limit is ${limits.maxCodeChars} (EXEC_MAX_CODE_CHARS)`,
      },
    };
  }
  const timeoutMs = Math.ceil(input.timeoutMs ?? limits.timeoutMs);
  if (timeoutMs > limits.maxTimeoutMs) {
    return {
      error: {
        name: "LimitError",
        message: `timeoutMs ${timeoutMs} is above the maximum of ${limits.maxTimeoutMs} ms (EXEC_MAX_TIMEOUT_MS)`,
      },
    };
  }
  return {
    code: input.code,
    language,
    cpuMs: limits.cpuMs,
    isolate: {
      timeoutMs,
      maxSteps: limits.maxSteps,
      maxOutputChars: limits.maxOutputChars,
      maxArgChars: limits.maxArgChars,
      egress: deps.egress ?? false,
      missingSkills: deps.skills?.missing ?? [],
    },
    skills: deps.skills?.loaded ?? [],
  };
}
