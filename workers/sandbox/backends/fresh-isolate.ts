import { failedOutcome, type SandboxBridgeApi, type SandboxRequest } from "../../../shared/contract/sandbox";
import { type Backend, type FreshPlacement, timed } from "./backend";
import { callWorker, freshWorker } from "./dynamic-worker";
import { ISOLATE_MAIN, javascriptModules, javascriptOutcome } from "./javascript";

/** The TypeScript/JavaScript isolate's entrypoint (runtime/runtime.js). */
interface IsolateEntrypoint {
  runAgentCode(options: SandboxRequest["isolate"], bridge: SandboxBridgeApi | undefined): Promise<unknown>;
}

/**
 * TypeScript/JavaScript on the `isolate` engine: a fresh Dynamic Worker with no env and no network
 * loads the runtime and the agent's module, and its `runAgentCode` executes the code on V8.
 */
export const freshIsolate: Backend<FreshPlacement> = {
  async execute(call) {
    const { loader, request } = call;
    const built = await javascriptModules(call, false);
    if (!built.ok) return failedOutcome(built.error);
    const code = { mainModule: ISOLATE_MAIN, modules: built.modules };
    const report = await timed(call.clock, "isolate", () =>
      callWorker(freshWorker(loader, code, request), request, (entrypoint) =>
        (entrypoint as IsolateEntrypoint).runAgentCode(request.isolate, built.bridge),
      ),
    );
    return javascriptOutcome(call, report, (error) => error);
  },
};
