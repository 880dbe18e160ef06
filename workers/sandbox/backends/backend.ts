import type {
  IsolateReport,
  Placement,
  SandboxBridgeApi,
  SandboxOutcome,
  SandboxRequest,
} from "../../../shared/contract/sandbox";
import { outcomeOf } from "../output";
import { keepWholeResult } from "../whole-result";

/** Wall time per phase for the bench (the gateway's PhaseClock); absent in normal operation. */
export interface PhaseTimer {
  time<T>(name: string, work: () => Promise<T> | T): Promise<T>;
}

export const timed = <T>(clock: PhaseTimer | undefined, name: string, work: () => Promise<T> | T) =>
  clock ? clock.time(name, work) : work();

/** One execution as the sandbox host got it, and where its Dynamic Workers come from. */
export interface SandboxCall {
  loader: WorkerLoader;
  request: SandboxRequest;
  /** the gateway's object the code reaches tools, sessions and egress through */
  bridge: SandboxBridgeApi | undefined;
  clock?: PhaseTimer | undefined;
}

export type WarmPlacement = Extract<Placement, { warm: unknown }>;
export type FreshPlacement = Extract<Placement, { fresh: true }>;

/**
 * One implementation of the engine seam: executes a request of its language in its kind of
 * placement (run-sandbox.ts picks one of four: the quickjs warm worker, the warm Python worker, a
 * fresh isolate, a fresh Python isolate). What the Dynamic Worker reports is checked before it is
 * believed; a failure of the host's own may be thrown, and run-sandbox.ts makes it the error.
 */
export interface Backend<P extends Placement> {
  execute(call: SandboxCall, placement: P): Promise<SandboxOutcome>;
}

/**
 * The report as the execution's outcome (shaped to the output budget again where the Worker sent
 * too much), with the whole result kept in the session's workspace when the Worker sent it.
 */
export function reportOutcome(
  call: SandboxCall,
  report: IsolateReport,
): Promise<SandboxOutcome> | SandboxOutcome {
  const { isolate } = call.request;
  const outcome = outcomeOf(report, isolate.maxOutputChars, isolate.piiSafeCuts);
  return report.wholeJson !== undefined && call.bridge
    ? keepWholeResult(outcome, report.wholeJson, call.bridge)
    : outcome;
}
