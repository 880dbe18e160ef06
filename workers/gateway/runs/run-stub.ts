import { hex } from "../../../shared/hash";
import type { GatewayEnv } from "../env";
import type { DetachedRun } from "./detached-run";

const RUN_ID = /^run_[0-9a-f]{32}$/;

export const newRunId = () => `run_${hex(crypto.getRandomValues(new Uint8Array(16)))}`;
export const isRunId = (id: string) => RUN_ID.test(id);

/** The object that runs one detached execution (runs/detached-run.ts). */
export function detachedRun(env: GatewayEnv, runId: string): DurableObjectStub<DetachedRun> {
  return env.RUNS.get(env.RUNS.idFromName(runId));
}
