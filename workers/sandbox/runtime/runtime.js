// Main module of every sandbox isolate of the `isolate` engine. The sandbox host loads it with the agent's
// compiled code (agent.js) and the execution's parts (parts.js), and calls `runAgentCode(options,
// bridge)` once over RPC; run-code.js (bundled in) does the work, as it does in a quickjs interpreter.
// The isolate's env is empty: the only way out is the bridge argument. Only this engine has the
// memory meter (memory.js; a QuickJS interpreter has its own memory limit): armed before the code
// runs, its stop reported as the guard's would be, off when run-code.js asks how the execution ended.
import { WorkerEntrypoint } from "cloudflare:workers";
import agentMain from "./agent.js";
import { meterState } from "./memory.js";
import { meterMemory } from "./memory-natives.js";
import * as parts from "./parts.js";
import { runAgentCode } from "./run-code.js";

/**
 * @typedef {import("../../../shared/contract/sandbox").IsolateOptions} IsolateOptions
 * @typedef {import("../../../shared/contract/sandbox").SandboxBridgeApi} Bridge
 */

export default class Sandbox extends WorkerEntrypoint {
  /**
   * @param {IsolateOptions} options
   * @param {Bridge | undefined} bridge
   * @returns {Promise<string>}
   */
  runAgentCode(options, bridge) {
    // A stop by the meter stops the guard too: later loop iterations cannot catch and go on.
    meterMemory((stop) => parts.tripTimeout?.(undefined, stop));
    const guardState = () => meterState() ?? parts.guardState?.() ?? null;
    return runAgentCode(options, bridge, agentMain, { ...parts, guardState });
  }
}
