import { hex } from "../../../shared/hash";
import type { GatewayEnv } from "../env";
import type { RunHost } from "./run-host";

const RUN_ID = /^run_[0-9a-f]{32}$/;

export const newRunId = () => `run_${hex(crypto.getRandomValues(new Uint8Array(16)))}`;
export const isRunId = (id: string) => RUN_ID.test(id);

/** The object that runs one detached execution (runs/run-host.ts). */
export function runHost(env: GatewayEnv, runId: string): DurableObjectStub<RunHost> {
  return env.RUNS.get(env.RUNS.idFromName(runId));
}
