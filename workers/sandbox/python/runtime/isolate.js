// Main module of a Python isolate on the `isolate` engine (and for Python code that calls TypeScript
// skills): the sandbox host loads it with pyodide's files (dist/manifest.mjs) and, once it has one, a memory
// snapshot; then calls runAgentCode(options, code, bridge) once over RPC, or snapshot() to make that
// snapshot.
// runAgentCode() returns one JSON text shaped like the TypeScript runtime's report (IsolateReport in
// shared/contract/sandbox.ts) and never throws. As for TypeScript, env is empty and globalOutbound
// null: the bridge argument is the only way out. The TypeScript runtime's modules (all parts:
// bridge-io, guard, invoke-skills, session, tools) set up the globals of the skills (TypeScript
// modules) that Python code calls.
import { WorkerEntrypoint } from "cloudflare:workers";
import { boot, snapshotOf } from "./boot.js";
import { configureGuard } from "./guard.js";
import { installSkills } from "./invoke-skills.js";
import { runPython } from "./run-python.js";
import { installSession } from "./session.js";
import loadedSkills from "./skills.js";
import snapshotData from "./snapshot.js";
import { installTools } from "./tools.js";

let started = false;

export default class PythonSandbox extends WorkerEntrypoint {
  /** A memory snapshot of a booted interpreter with the driver and common modules imported. */
  async snapshot() {
    return snapshotOf(await boot({ makeSnapshot: true })).buffer;
  }

  /**
   * @param {import("../../../../shared/contract/sandbox").IsolateOptions} options
   * @param {string} code
   * @param {import("../../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
   * @returns {Promise<string>}
   */
  async runAgentCode(options, code, bridge) {
    if (started) throw new Error("runAgentCode() may be called once per isolate");
    started = true;
    return runPython(
      options,
      code,
      bridge,
      () => boot({ snapshot: snapshotData ? new Uint8Array(snapshotData) : null }),
      (toJson, unwrap, track) => {
        const callSkill = installSkills(bridge, loadedSkills, options.missingSkills, toJson, unwrap, track);
        installTools(bridge, options.maxArgChars, callSkill, track);
        installSession(bridge, unwrap, track);
        configureGuard(options.timeoutMs, options.maxSteps);
        return callSkill;
      },
    );
  }
}
