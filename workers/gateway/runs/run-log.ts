import type { RunLog } from "../../../durable-objects/runs/run-log";
import { hex } from "../../../shared/hash";
import type { GatewayEnv } from "../env";

const RUN_ID = /^run_[0-9a-f]{32}$/;

export const newRunId = () => `run_${hex(crypto.getRandomValues(new Uint8Array(16)))}`;
export const isRunId = (id: string) => RUN_ID.test(id);

/** The log of one detached execution (durable-objects/runs/run-log.ts). */
export function runLog(env: GatewayEnv, runId: string): DurableObjectStub<RunLog> {
  return env.RUNS.get(env.RUNS.idFromName(runId));
}
