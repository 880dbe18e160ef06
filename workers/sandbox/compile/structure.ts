import { type Node, type Program, parse } from "acorn";
import type { ExecutionError } from "../../../shared/contract/execute";
import { repeats, visit } from "./instrument";
import { WRAPPER_NAME } from "./syntax";

/**
 * The agent's code must stay inside the function it is wrapped in. Code such as `return 1; }
 * while (true) {} function _() {` parses fine once wrapped, but its middle part would run at the
 * module's top level, outside the guard, with `import` declarations available. So the wrapped
 * program must be exactly one statement, the wrapper, ending where the source ends.
 */
export function escapeFromWrapper(program: Program, js: string): ExecutionError | undefined {
  const [wrapper, next] = program.body;
  const isWrapper =
    wrapper?.type === "FunctionDeclaration" && wrapper.id?.name === WRAPPER_NAME && wrapper.async;
  if (isWrapper && next === undefined && js.slice(wrapper.end).trim() === "") return undefined;
  const line = isWrapper ? lineAt(js, wrapper.end - 1) : 1;
  return {
    name: "SyntaxError",
    message:
      `Unexpected "}" at line ${line}: it closes the function your code runs in. ` +
      "Code must be one function body: balanced braces, no import or export declarations",
    line,
  };
}

/**
 * Last check on the module text the isolate will load: the guard's import and the wrapper as its
 * default export, nothing else; or, for code the compiler found nothing repeating in, the wrapper
 * alone, in which nothing (no loop, no function) may then repeat. Anything the steps before let
 * through is refused here.
 */
export function isSealedModule(module: string, guarded: boolean): boolean {
  let program: Program;
  try {
    program = parse(module, { ecmaVersion: "latest", sourceType: "module" });
  } catch {
    return false;
  }
  const [guardImport, main, extra] = guarded ? program.body : [undefined, ...program.body];
  if (extra !== undefined || main === undefined) return false;
  if (guarded && (guardImport?.type !== "ImportDeclaration" || guardImport.source.value !== "./guard.js"))
    return false;
  if (main.type !== "ExportDefaultDeclaration") return false;
  const fn = main.declaration;
  if (fn.type !== "FunctionDeclaration" || fn.id?.name !== WRAPPER_NAME || module.slice(fn.end).trim() !== "")
    return false;
  return guarded || !anyRepeats(fn.body);
}

function anyRepeats(body: Node): boolean {
  let found = false;
  visit(body as Node & Record<string, unknown>, (node) => {
    if (repeats(node)) found = true;
  });
  return found;
}

/** 1-based line of the agent's code at `pos` in the wrapped text (whose line 1 is the wrapper's head). */
function lineAt(js: string, pos: number): number {
  let line = 0;
  for (let i = js.indexOf("\n"); i !== -1 && i < pos; i = js.indexOf("\n", i + 1)) line++;
  return Math.max(1, line);
}
