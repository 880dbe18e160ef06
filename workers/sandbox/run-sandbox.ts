import {
  failedOutcome,
  type SandboxBridgeApi,
  type SandboxHostApi,
  type SandboxOutcome,
  type SandboxRequest,
} from "../../shared/contract/sandbox";
import type { PhaseTimer, SandboxCall } from "./backends/backend";
import { hostError } from "./backends/dynamic-worker";
import { freshIsolate } from "./backends/fresh-isolate";
import { freshPython } from "./backends/fresh-python";
import { pythonWarm } from "./backends/python-warm";
import { quickjsWarm } from "./backends/quickjs-warm";

/** The sandbox host run in the caller's own isolate: what a deployed gateway does by default. */
export function inProcessHost(loader: WorkerLoader, clock?: PhaseTimer): SandboxHostApi {
  return { runSandbox: (request, bridge) => runSandbox(loader, request, bridge, clock) };
}

/**
 * The sandbox side of an execution: the one place that picks its backend, from the placement the
 * gateway decided and the language. A warm placement goes to the team's warm worker of the language
 * (quickjs-warm.ts, python-warm.ts), a fresh one to a Dynamic Worker made for it (fresh-isolate.ts,
 * fresh-python.ts); each loads nothing but the runtime and the code, with no env and no network, the
 * bridge its only way out. Never throws: a failure of the host's own becomes the outcome's error.
 */
export async function runSandbox(
  loader: WorkerLoader,
  request: SandboxRequest,
  bridge: SandboxBridgeApi | undefined,
  clock?: PhaseTimer,
): Promise<SandboxOutcome> {
  const call: SandboxCall = { loader, request, bridge, clock };
  const { placement } = request;
  const python = request.language === "python";
  try {
    if ("warm" in placement) return await (python ? pythonWarm : quickjsWarm).execute(call, placement);
    return await (python ? freshPython : freshIsolate).execute(call, placement);
  } catch (err) {
    return failedOutcome(hostError(err));
  }
}
