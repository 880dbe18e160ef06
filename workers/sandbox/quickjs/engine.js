// The `quickjs` engine's warm Dynamic Worker. Its code never changes, so the gateway loads it once
// per pool slot (`LOADER.get("<team>:<engine version>:<slot>")`) and reuses it while it is warm. Each
// execution arrives as data — the runtime's modules and the agent's compiled module — and runs in an
// interpreter of its own: QuickJS's runtime and context in a wasm instance no other execution uses
// meanwhile, set back before it to the prepared interpreter's image (made before the execution
// asks: interpreter.js, snapshot.js). Nothing of an execution outlives it here: this module keeps
// only the compiled wasm module, the count of executions in flight, the image, one prepared
// interpreter that no execution has touched and linear memories set back to the image once their
// execution closed (memories.js: as many as run at once, and one more, with their instances).
//
// Bounds, all deterministic and the same locally as on Cloudflare:
// - CPU: fuel, a budget of interrupt-handler calls (QuickJS calls it every 10,000 bytecode steps and
//   from its regex engine); `Date.now()` does not advance during computation on Cloudflare.
// - memory: the interpreter's linear memory, whose maximum is the execution's limit beyond a fresh
//   interpreter's memory (memories.js), and executions admitted by it; stack: the runtime's limit.
// - wall clock: the runtime's own timer (runtime.js), which fires at awaits.
// - natives that loop without the interrupt handler: refused by prelude.js before they start.
// When fuel runs out the agent's code is unwound (QuickJS makes that error uncatchable), its timers
// and pending calls are dropped, and the runtime gets a little more fuel to report what happened
// with its logs; if even that runs out, this module reports the stop itself.

import { WorkerEntrypoint } from "cloudflare:workers";
import { interpretersThatFit } from "../../../shared/contract/engine";
import { execute } from "./interpreter.js";
import { engineError, stopReport, timeoutError } from "./reports.js";

let inFlight = 0;
/** @type {Array<() => void>} */
const waiting = [];

/**
 * @typedef {import("../../../shared/contract/sandbox").EngineRun} EngineRun
 */

export default class WarmSandbox extends WorkerEntrypoint {
  /**
   * One execution; returns the runtime's report (JSON text) or one this module wrote. Never throws.
   * @param {EngineRun} run
   * @param {import("../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
   */
  async run(run, bridge) {
    const deadline = Date.now() + run.options.timeoutMs;
    const hasRoom = await waitForRoom(run.memoryBytes, deadline);
    if (!hasRoom) return stopReport(timeoutError(run.options.timeoutMs, "waiting for room in the sandbox"));
    // Room is given back once the execution's memory is (execute calls `release` exactly once): the
    // next execution then takes that memory instead of growing another beside it.
    try {
      return await execute(run, bridge, (work) => this.ctx.waitUntil(work), release);
    } catch (err) {
      return stopReport(engineError(err));
    }
  }
}

/**
 * Waits until this worker has room for one more interpreter of `memoryBytes` (its isolate has
 * 128 MB; each running interpreter's linear memory may grow to its hard maximum:
 * interpretersThatFit), or until the deadline.
 * @param {number} memoryBytes
 * @param {number} deadline
 */
async function waitForRoom(memoryBytes, deadline) {
  const fits = interpretersThatFit(memoryBytes);
  while (inFlight >= fits) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    /** @type {() => void} */
    let wake = () => {};
    const woken = new Promise((resolve) => {
      wake = () => resolve(undefined);
      waiting.push(wake);
    });
    let timer;
    await Promise.race([woken, new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
    clearTimeout(timer);
    const at = waiting.indexOf(wake);
    if (at >= 0) waiting.splice(at, 1);
  }
  inFlight++;
  return true;
}

function release() {
  inFlight--;
  waiting.shift()?.();
}
