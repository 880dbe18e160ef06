// Main module of every sandbox isolate of the `isolate` engine. The host loads it with the agent's
// compiled code (agent.js) and the execution's parts (parts.js), and calls `runAgentCode(options,
// bridge)` once over RPC; run-code.js (bundled in) does the work, as it does in a quickjs interpreter.
// The isolate's env is empty: the only way out is the bridge argument.
import { WorkerEntrypoint } from "cloudflare:workers";
import run from "./agent.js";
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
    return runAgentCode(options, bridge, run, parts);
  }
}
