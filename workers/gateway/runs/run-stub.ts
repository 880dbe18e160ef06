import { hex } from "../../../shared/hash";
import type { GatewayEnv } from "../env";
import { parseTraceparent } from "../tracing/context";
import type { Trace } from "../tracing/trace";
import type { DetachedRun } from "./detached-run";

const RUN_ID = /^run_[0-9a-f]{32}$/;

export const newRunId = () => `run_${hex(crypto.getRandomValues(new Uint8Array(16)))}`;
export const isRunId = (id: string) => RUN_ID.test(id);

/** The object that runs one detached execution (runs/detached-run.ts). */
export function detachedRun(env: GatewayEnv, runId: string): DurableObjectStub<DetachedRun> {
  return env.RUNS.get(env.RUNS.idFromName(runId));
}

/**
 * A request about a run (its resumption, tasks/get, tasks/update, tasks/cancel) links its span to the
 * run's: each is its own trace, all under the first request's. Nothing is read when not recording.
 */
export async function linkToRun(
  trace: Trace | undefined,
  run: DurableObjectStub<DetachedRun>,
  team: string,
): Promise<void> {
  if (!trace?.recording) return;
  const started = parseTraceparent(await run.traceparent(team));
  if (started) trace.root.link(started);
}
