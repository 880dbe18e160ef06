import { failedOutcome } from "../../../shared/contract/sandbox";
import { PYTHON_MAIN, type PythonEntrypoint, pythonModules } from "../python/python-isolate";
import { skillModules } from "../skill-modules";
import { type Backend, type FreshPlacement, reportOutcome } from "./backend";
import { callWorker, freshWorker } from "./dynamic-worker";

/**
 * Python in a fresh isolate (the `isolate` engine, and Python code that calls TypeScript skills on
 * either engine): pyodide's files, this host's snapshot (python-isolate.ts) and the TypeScript
 * skills as modules, which run on V8.
 */
export const freshPython: Backend<FreshPlacement> = {
  async execute(call) {
    const { loader, request, bridge } = call;
    const skills = skillModules(request.skills);
    if (!skills.ok) return failedOutcome(skills.error);
    const code = { mainModule: PYTHON_MAIN, modules: await pythonModules(loader, skills.modules) };
    const report = await callWorker(freshWorker(loader, code, request), request, (entrypoint) =>
      (entrypoint as PythonEntrypoint).runAgentCode(request.isolate, request.code, bridge),
    );
    const shaped = await reportOutcome(call, report);
    return report.error ? { ...shaped, error: report.error } : shaped;
  },
};
