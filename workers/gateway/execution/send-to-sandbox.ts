import type { ExecuteInput, ExecuteResult, ExecutionError } from "../../../shared/contract/execute";
import {
  failedOutcome,
  HOST_GRACE_MS,
  type LoadedSkill,
  type Placement,
  type SandboxBridgeApi,
  type SandboxHostApi,
  SandboxOutcome,
  type SandboxRequest,
  sandboxError,
} from "../../../shared/contract/sandbox";
import { disposeQuietly } from "../../../shared/dispose";
import type { ExecutionLimits } from "../config";
import { sandboxSkills } from "../skills/resolve";
import type { ExecutionLedger } from "./ledger";

const PING_TIMEOUT_MS = 1_000;
/**
 * Per-isolate state: when a sandbox host in another process last missed an execution's deadline (or
 * broke off), unless it has answered a ping since: it is asked first before it gets code again, and
 * GET /live says so (the local stack's supervisor restarts a sandbox host that is silent past a
 * deadline, not one that is busy).
 */
let overdueSince: number | undefined;

/** When the sandbox host missed a deadline and has not answered since; undefined when it is fine. */
export function sandboxHostOverdueSince(): number | undefined {
  return overdueSince;
}

export interface SandboxDeps {
  /** where isolates are made: in this isolate (`inProcessHost`) or the SANDBOX_HOST service */
  host: SandboxHostApi;
  /** where it runs: a warm worker of the team's pool or a fresh isolate (placement.ts `placeExecution`) */
  placement: Placement;
  limits: ExecutionLimits;
  /** the object the isolate's code reaches the gateway through (tools, discovery, egress) */
  bridge?: SandboxBridgeApi;
  /** what the bridge counted; closed when the sandbox has answered */
  ledger?: ExecutionLedger;
  /** fetch() goes to the bridge (the team's egress allowlist) instead of failing */
  egress?: boolean;
  /** the skills the code names: loaded into the isolate, or missing from the team's store */
  skills?: { loaded: LoadedSkill[]; missing: string[] };
  /** text is cut only outside personal data (PII tokenization is on) */
  piiSafeCuts?: boolean;
  /** a cut result is kept whole in the session's workspace */
  keepWholeResult?: boolean;
  /** console lines go to the bridge as they are logged */
  liveLogs?: boolean;
  /** cancels the execution: the host's answer is no longer awaited (the isolate is abandoned) */
  signal?: AbortSignal | undefined;
}

/**
 * The gateway's side of running agent code: checks the input and its plan's timeout against the limits, sends one
 * SandboxRequest to the host, checks the host's answer like any other input, and makes the
 * contract's result, its `stats` from the gateway's own ledger, not the isolate. Never throws: every
 * failure, ours or the code's, comes back as `error`.
 */
export async function sendToSandbox(
  deps: SandboxDeps,
  input: ExecuteInput,
  timeoutMs: number,
): Promise<ExecuteResult> {
  const started = Date.now();
  const request = sandboxRequest(deps, input, timeoutMs);
  const outcome = "error" in request ? failedOutcome(request.error) : await askHost(deps, request);
  deps.ledger?.close();
  if (outcome.skillRuns) deps.ledger?.skillsRan(outcome.skillRuns);
  const toolCalls = deps.ledger?.toolCalls ?? 0;
  const calls = deps.ledger?.callStats() ?? [];
  const fetches = deps.ledger?.fetches ?? 0;
  return {
    ...(outcome.result === undefined ? {} : { result: outcome.result }),
    logs: outcome.logs,
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.warnings?.length ? { warnings: outcome.warnings } : {}),
    ...(outcome.truncation ? { truncation: outcome.truncation } : {}),
    stats: {
      durationMs: Date.now() - started,
      toolCalls,
      truncated: outcome.truncated,
      ...(calls.length ? { calls } : {}),
      ...(fetches ? { fetches } : {}),
    },
  };
}

/** The host's answer within the execution's time plus grace, or the failure that stands for it. */
async function askHost(deps: SandboxDeps, request: SandboxRequest): Promise<SandboxOutcome> {
  if (overdueSince !== undefined && deps.host.ping) {
    if (!(await answers(deps.host.ping()))) {
      return failedOutcome({
        name: "SandboxUnavailableError",
        message:
          "The sandbox host is not answering (an earlier execution may have hung it; it is being restarted). Retry in a few seconds",
      });
    }
    overdueSince = undefined;
  }
  const limit = request.isolate.timeoutMs + 2 * HOST_GRACE_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const backstop = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), limit);
  });
  const { signal } = deps;
  let onCancel: (() => void) | undefined;
  const cancelled = new Promise<"cancelled">((resolve) => {
    onCancel = () => resolve("cancelled");
    if (signal?.aborted) onCancel();
    else signal?.addEventListener("abort", onCancel, { once: true });
  });
  // The host's answer holds the bridge's stub until disposed, also when it comes after the deadline.
  const answer = Promise.resolve().then(() => deps.host.runSandbox(request, deps.bridge));
  try {
    const raw = await Promise.race([answer, backstop, cancelled]);
    if (raw === "cancelled") {
      answer.then(disposeQuietly, () => {});
      return failedOutcome({ name: "CancelledError", message: "The execution was cancelled by its client" });
    }
    if (raw === "timeout") {
      answer.then(disposeQuietly, () => {});
      markOverdue(deps.host);
      return failedOutcome({
        name: "TimeoutError",
        message: `Execution timed out after ${request.isolate.timeoutMs} ms (the sandbox host did not answer). Do less per execution, or retry`,
      });
    }
    const parsed = SandboxOutcome.safeParse(raw);
    disposeQuietly(raw);
    if (parsed.success) return parsed.data;
    return failedOutcome(sandboxError("the sandbox host answered with a malformed outcome"));
  } catch (err) {
    markOverdue(deps.host);
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 80);
    return failedOutcome(
      sandboxError(
        `the sandbox host stopped while running this code (${message}). Code stuck in one native call or using too much memory stops it; it restarts by itself: retry shortly with less work`,
      ),
    );
  } finally {
    clearTimeout(timer);
    if (onCancel) signal?.removeEventListener("abort", onCancel);
  }
}

/** Only a host in another process (one that answers pings) can be restarted on its own. */
function markOverdue(host: SandboxHostApi): void {
  if (host.ping) overdueSince ??= Date.now();
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

/** The request the host gets, or the LimitError that stops the input before it leaves. */
function sandboxRequest(
  deps: SandboxDeps,
  input: ExecuteInput,
  timeoutMs: number,
): SandboxRequest | { error: ExecutionError } {
  const { limits } = deps;
  const language = input.language ?? "typescript";
  const skills = sandboxSkills(deps.skills, language);
  if (input.code.length > limits.maxCodeChars) {
    return {
      error: {
        name: "LimitError",
        message: `code is ${input.code.length} characters; the limit is ${limits.maxCodeChars}. Shorten it: save reused code as a skill, or split the work across executions (operator setting: EXEC_MAX_CODE_CHARS)`,
      },
    };
  }
  if (timeoutMs > limits.maxTimeoutMs) {
    return {
      error: {
        name: "LimitError",
        message: `timeoutMs ${timeoutMs} is above the maximum of ${limits.maxTimeoutMs} ms. Ask for at most ${limits.maxTimeoutMs}, or split the work across executions (operator setting: EXEC_MAX_TIMEOUT_MS)`,
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
      missingSkills: skills.missingSkills,
      pythonSkills: skills.pythonSkills,
      piiSafeCuts: deps.piiSafeCuts ?? false,
      keepWholeResult: deps.keepWholeResult ?? false,
      liveLogs: deps.liveLogs ?? false,
    },
    skills: skills.modules,
    placement: deps.placement,
  };
}
