import type { AssignmentExpression, BinaryExpression, CatchClause, Node, Program } from "acorn";
import { parse } from "acorn";
import { visit } from "./instrument";

/**
 * Hooks of the quickjs engine's interpreters (workers/sandbox/quickjs/polyfills/v8-builtins.js),
 * under symbol keys of the global object, so no name of the agent's can collide with them:
 * `error(e)` gives an error QuickJS's own code threw (a TypeError on `null.x`, a stack overflow, …)
 * V8's name and words; `pow(a, b)` is `a ** b` with V8's result (QuickJS's libm differs in the last
 * bit for some inputs).
 */
export const V8_HOOKS = { error: "sandbox.v8Error", pow: "sandbox.v8Pow" } as const;
const hook = (name: keyof typeof V8_HOOKS) => `globalThis[Symbol.for("${V8_HOOKS[name]}")]`;

type Edit = { start: number; end: number; node?: BinaryExpression; text?: string };

/**
 * Agent code as the quickjs engine runs it with V8's semantics: `e = hook(e);` at the top of every
 * `catch (e) { … }` (an identifier parameter; a destructured one keeps QuickJS's words), and
 * `a ** b` (and `x **= b` for a variable `x`) through the pow hook. Every edit stays within its
 * lines, so line numbers do not move. Parsed again; undefined when there is nothing to change.
 */
export function withV8Semantics(js: string, program: Program): { js: string; program: Program } | undefined {
  const edits: Edit[] = [];
  visit(program as unknown as Node & Record<string, unknown>, (node) => {
    if (node.type === "CatchClause") {
      const { param, body } = node as unknown as CatchClause;
      if (param?.type === "Identifier")
        edits.push({
          start: body.start + 1,
          end: body.start + 1,
          text: `${param.name} = ${hook("error")}(${param.name});`,
        });
    } else if (node.type === "BinaryExpression" && (node as unknown as BinaryExpression).operator === "**") {
      edits.push({ start: node.start, end: node.end, node: node as unknown as BinaryExpression });
    } else if (node.type === "AssignmentExpression") {
      const { operator, left, right } = node as unknown as AssignmentExpression;
      if (operator === "**=" && left.type === "Identifier")
        edits.push(
          { start: node.start, end: right.start, text: `${left.name} = ${hook("pow")}(${left.name}, ` },
          { start: right.end, end: right.end, text: ")" },
        );
    }
  });
  if (edits.length === 0) return undefined;
  const out = render(js, 0, js.length, edits);
  return { js: out, program: parse(out, { ecmaVersion: "latest", sourceType: "module", locations: true }) };
}

/** js[start, end) with the edits inside it applied; a `**` inside another is rendered inside it. */
function render(js: string, start: number, end: number, edits: Edit[]): string {
  const inside = edits
    .filter((e) => e.start >= start && e.end <= end && (e.start < end || e.start === e.end))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  let out = "";
  let at = start;
  for (const edit of inside) {
    if (edit.start < at) continue; // nested in an edit already rendered
    out += js.slice(at, edit.start);
    if (edit.node) {
      const op = js.indexOf("**", edit.node.left.end);
      const rest = edits.filter((e) => e !== edit);
      out += `${hook("pow")}(${render(js, edit.start, op, rest)}, ${render(js, op + 2, edit.end, rest)})`;
    } else out += edit.text ?? "";
    at = edit.end;
  }
  return out + js.slice(at, end);
}
