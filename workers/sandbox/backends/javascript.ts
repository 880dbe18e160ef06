import type { ExecutionError } from "../../../shared/contract/execute";
import type { IsolateReport, SandboxBridgeApi, SandboxOutcome } from "../../../shared/contract/sandbox";
import { AGENT_MODULE, compileAgentCode } from "../compile";
import { runtimeModules, usesBridge } from "../parts";
import { skillModules } from "../skill-modules";
import { mapAgentStack } from "../stack";
import { reportOutcome, type SandboxCall, timed } from "./backend";

/** The isolate engine's main module (runtime/runtime.js), which parts.ts puts in every execution's modules. */
export const ISOLATE_MAIN = "runtime.js";

type ReportError = NonNullable<IsolateReport["error"]>;

/**
 * What one TypeScript/JavaScript execution loads: the runtime's parts, the skills' modules and the
 * agent's compiled module (`v8Semantics` for the quickjs engine), and the bridge when the code can
 * use it; or the error that stops it before it loads.
 */
export async function javascriptModules(
  call: SandboxCall,
  v8Semantics: boolean,
): Promise<
  | { ok: true; modules: Record<string, string>; bridge: SandboxBridgeApi | undefined }
  | { ok: false; error: ExecutionError }
> {
  const { request } = call;
  const skills = skillModules(request.skills, v8Semantics);
  if (!skills.ok) return skills;
  const { language } = request;
  if (language === "python") throw new Error("Python code went to a JavaScript backend");
  const compiled = await timed(call.clock, "compile", () =>
    compileAgentCode(request.code, language, "agent", v8Semantics),
  );
  if (!compiled.ok) return compiled;
  const sources = [request.code, ...request.skills.map((s) => s.code)];
  const guarded = compiled.guarded || skills.guarded;
  const modules = {
    ...runtimeModules(sources, { guarded, piiSafeCuts: request.isolate.piiSafeCuts }, skills.modules),
    [AGENT_MODULE]: compiled.module,
  };
  const bridge = usesBridge(modules) || request.isolate.liveLogs ? call.bridge : undefined;
  return { ok: true, modules, bridge };
}

/** The report as the outcome, its error in the engine's words (`words`) with its stack in the agent's lines. */
export async function javascriptOutcome(
  call: SandboxCall,
  report: IsolateReport,
  words: (error: ReportError) => ReportError,
): Promise<SandboxOutcome> {
  const shaped = await timed(call.clock, "shape", () => reportOutcome(call, report));
  return report.error ? { ...shaped, error: locate(words(report.error)) } : shaped;
}

/** The error with its stack in the agent's lines, and its line from the stack when it has one there. */
function locate(error: ReportError): ExecutionError {
  if (error.stack === undefined) return error;
  const mapped = mapAgentStack(error.stack);
  return { ...error, stack: mapped.stack, ...(mapped.line === undefined ? {} : { line: mapped.line }) };
}
