import { type CatchClause, type Node, type Program, parse } from "acorn";
import { visit } from "./instrument";

/**
 * The quickjs engine's hook for caught errors: `globalThis[Symbol.for(V8_ERROR_KEY)](e)` gives an
 * error of QuickJS's own (a TypeError on `null.x`, a stack overflow, …) V8's name and words
 * (workers/sandbox/quickjs/polyfills/v8.js), so code that reads `e.message` gets the isolate
 * engine's answer. A symbol key: no name of the agent's can collide with it.
 */
export const V8_ERROR_KEY = "sandbox.v8Error";

/**
 * `js` with `e = hook(e);` at the top of every `catch (e) { … }` (an identifier parameter; a
 * destructured one keeps QuickJS's words), parsed again. Inserts stay within lines, so line numbers
 * do not move. Undefined when the code has no such clause.
 */
export function withV8Errors(js: string, program: Program): { js: string; program: Program } | undefined {
  const inserts: { pos: number; text: string }[] = [];
  visit(program as unknown as Node & Record<string, unknown>, (node) => {
    if (node.type !== "CatchClause") return;
    const param = (node as unknown as CatchClause).param;
    if (param?.type !== "Identifier") return;
    const body = (node as unknown as CatchClause).body;
    inserts.push({
      pos: body.start + 1,
      text: `${param.name} = globalThis[Symbol.for("${V8_ERROR_KEY}")](${param.name});`,
    });
  });
  if (inserts.length === 0) return undefined;
  let out = "";
  let at = 0;
  for (const insert of inserts.sort((a, b) => a.pos - b.pos)) {
    out += js.slice(at, insert.pos) + insert.text;
    at = insert.pos;
  }
  out += js.slice(at);
  return { js: out, program: parse(out, { ecmaVersion: "latest", sourceType: "module", locations: true }) };
}
