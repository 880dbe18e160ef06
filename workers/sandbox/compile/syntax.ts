import { type Options, type Program, parse } from "acorn";
import { transform } from "sucrase";
import type { ExecutionError } from "../../../shared/contract/execute";

/** Agent code is wrapped as the body of this function; line 1 of the agent's code is line 2 here. */
export const WRAPPER_NAME = "__agent__";
export const WRAPPER_HEAD = `async function ${WRAPPER_NAME}() {`;
/** A skill's code is the body of a function of its arguments and its own `skills` (contract "Skills"). */
export const SKILL_WRAPPER_HEAD = `async function ${WRAPPER_NAME}(args, skills) {`;
const ACORN: Options = { ecmaVersion: "latest", sourceType: "module", locations: true };

export type Parsed = { ok: true; js: string; program: Program } | { ok: false; error: ExecutionError };

interface LocatedError {
  message: string;
  loc?: { line: number; column: number };
}

/**
 * Strips TypeScript with sucrase (pure JS, no eval, fast, and it keeps every line where it was, so
 * error lines need no source map), then parses the JavaScript with acorn for instrumentation.
 * TypeScript code that is already JavaScript skips sucrase (see `parsesAsJavaScript`).
 */
export function parseAgentCode(
  code: string,
  language: "typescript" | "javascript",
  head: string = WRAPPER_HEAD,
): Parsed {
  const lineCount = code.split("\n").length;
  let js = `${head}\n${code}\n}`;
  if (language === "typescript") {
    const program = parsesAsJavaScript(code, js);
    if (program) return { ok: true, js, program };
    try {
      js = transform(js, { transforms: ["typescript"], disableESTransforms: true }).code;
    } catch (err) {
      return { ok: false, error: syntaxError(err as LocatedError, lineCount, 0) };
    }
  }
  try {
    return { ok: true, js, program: parse(js, ACORN) };
  } catch (err) {
    return { ok: false, error: syntaxError(err as LocatedError, lineCount, 1) };
  }
}

/**
 * The program, when TypeScript source needs no stripping: it has no `<` and parses as JavaScript.
 * Sucrase leaves such code as it is, apart from one ambiguity that needs `<`: `f < T > (x)` is a
 * generic call in TypeScript and two comparisons in JavaScript. Skipping sucrase saves CPU
 * on every such execution (docs/bench-log.md); code that does not parse goes through sucrase, so
 * its errors are reported as before.
 */
function parsesAsJavaScript(code: string, js: string): Program | undefined {
  if (code.includes("<")) return undefined;
  try {
    return parse(js, ACORN);
  } catch {
    return undefined;
  }
}

/** `columnBase`: sucrase counts columns from 1, acorn from 0. */
function syntaxError(err: LocatedError, lineCount: number, columnBase: 0 | 1): ExecutionError {
  const text = String(err.message).replace(/\s*\(\d+:\d+\)$/, "");
  if (!err.loc) return { name: "SyntaxError", message: text };
  // An error on the wrapper's closing line (unclosed brace, dangling call) belongs to the last line.
  const atEnd = err.loc.line - 1 > lineCount;
  const line = atEnd ? lineCount : Math.max(1, err.loc.line - 1);
  const column = atEnd ? undefined : err.loc.column + columnBase;
  if (column === undefined) return { name: "SyntaxError", message: `${text} (at the end of the code)`, line };
  return { name: "SyntaxError", message: `${text} (line ${line}, column ${column})`, line, column };
}
