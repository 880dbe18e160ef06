import type { FunctionDeclaration, Node, Statement } from "acorn";
import { FUNCTIONS, type Insert, visit } from "./instrument";

/**
 * What the agent's code returns besides its own `return`s, as inserts applied in the same pass as
 * the guards (they stay within lines): a whole `async () => { … }` (or function expression) is
 * called, `return (…)()`; else code with no `return` of its own whose last statement is an
 * expression (not an assignment) returns that expression's value, as a notebook or Python does.
 * Skills are not given the second: a skill returns what it returns.
 */
export function returnInserts(wrapper: unknown, kind: "agent" | "skill"): Insert[] {
  const body = (wrapper as FunctionDeclaration).body.body;
  const called = callIfFunctionExpression(body);
  if (called.length > 0 || kind === "skill") return called;
  return returnLastExpression(body);
}

/** `async () => { … }` (or a function expression) as the whole code becomes `return (…)()`. */
function callIfFunctionExpression(body: Statement[]): Insert[] {
  const only = body.length === 1 ? body[0] : undefined;
  if (only?.type !== "ExpressionStatement") return [];
  const expr = only.expression;
  if (expr.type !== "ArrowFunctionExpression" && expr.type !== "FunctionExpression") return [];
  return [
    { pos: expr.start, text: "return (", order: 0 },
    { pos: expr.end, text: ")()", order: -1 },
  ];
}

/**
 * `…; expr` → `…; return (expr)` when no `return` of the code's own is outside a nested function.
 * The statement may start before its expression (`(a, b)`): `return (` goes before the statement.
 */
function returnLastExpression(body: Statement[]): Insert[] {
  const last = body.at(-1);
  if (last?.type !== "ExpressionStatement" || last.expression.type === "AssignmentExpression") return [];
  if (body.some(returnsOutsideFunctions)) return [];
  return [
    { pos: last.start, text: "return (", order: 0 },
    { pos: last.expression.end, text: ")", order: -1 },
  ];
}

function returnsOutsideFunctions(statement: Statement): boolean {
  let found = false;
  visit(statement as Node & Record<string, unknown>, (node) => {
    if (node.type === "ReturnStatement") found = true;
    return !found && !FUNCTIONS.has(node.type);
  });
  return found;
}
