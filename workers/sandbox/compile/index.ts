import type { ExecutionError } from "../../../shared/contract/execute";
import { instrument, thrownRecorder } from "./instrument";
import { returnInserts } from "./returns";
import { escapeFromWrapper, isSealedModule } from "./structure";
import { parseAgentCode, SKILL_WRAPPER_HEAD, WRAPPER_HEAD } from "./syntax";
import { withV8Semantics } from "./v8-semantics";

/** Module name of the agent's code inside the isolate; stack frames in it are the agent's lines. */
export const AGENT_MODULE = "agent.js";
/** Module line N holds the agent's line N - 1. */
export const AGENT_LINE_OFFSET = 1;
/** Module name of a skill's code inside the isolate (skill names are `^[a-z][a-z0-9_]{0,63}$`). */
export const skillModule = (name: string) => `skill-${name}.js`;

/** `guarded`: the module imports the guard (it has loops or functions besides its wrapper, or throws). */
export type Compiled = { ok: true; module: string; guarded: boolean } | { ok: false; error: ExecutionError };

/**
 * Agent code → the ES module the sandbox runtime imports: TypeScript stripped, `async () => {…}`
 * expressions called or a last expression returned (returns.ts), every loop and function guarded,
 * thrown values recorded with their line, and the guard imported under a random name that the
 * agent's code cannot know, so it can neither shadow nor reach it. Code without any loop, function
 * or throw (`const a = await tools.x.y({}); return a.total`) runs once through: it gets no guard,
 * and the isolate no guard module (~0.1–0.2 ms of CPU less per execution).
 */
export function compileAgentCode(
  code: string,
  language: "typescript" | "javascript",
  kind: "agent" | "skill" = "agent",
  v8Semantics = false,
): Compiled {
  const head = kind === "skill" ? SKILL_WRAPPER_HEAD : WRAPPER_HEAD;
  const first = parseAgentCode(code, language, head);
  if (!first.ok) return first;
  // For an interpreter that is not V8 (the quickjs engine): caught errors get V8's words and `**`
  // V8's result (v8-semantics.ts).
  const v8 = v8Semantics && /catch|\*\*/.test(code) && withV8Semantics(first.js, first.program);
  const parsed = v8 || first;
  const escaped = escapeFromWrapper(parsed.program, parsed.js);
  if (escaped) return { ok: false, error: escaped };
  const guard = `__guard_${crypto.randomUUID().replaceAll("-", "")}`;
  const returns = returnInserts(parsed.program.body[0], kind);
  const instrumented = instrument(parsed.js, parsed.program, guard, returns, kind === "agent");
  if (!instrumented.ok) return instrumented;
  const { guarded, js } = instrumented;
  if (!js.startsWith(head)) {
    return { ok: false, error: { name: "InternalError", message: "The compiled code lost its wrapper" } };
  }
  const module = guarded
    ? `import { tick as ${guard}, thrown as ${thrownRecorder(guard)} } from "./guard.js"; export default ${js}`
    : `export default ${js}`;
  if (!isSealedModule(module, guarded)) {
    return { ok: false, error: { name: "SyntaxError", message: "Code must be one function body" } };
  }
  return { ok: true, module, guarded };
}
