import type { Node, Program } from "acorn";
import type { ExecutionError } from "../../../shared/contract/execute";

/** Nodes whose code can run again and again: what the guard has to see. */
const LOOPS = new Set([
  "WhileStatement",
  "DoWhileStatement",
  "ForStatement",
  "ForInStatement",
  "ForOfStatement",
]);
export const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

export interface Insert {
  pos: number;
  text: string;
  /** closing inserts at one position go innermost first, opening ones outermost first */
  order: number;
}

type AnyNode = Node & Record<string, unknown>;

/** A loop, or a function, whose body may run any number of times (calls, callbacks, recursion). */
export function repeats(node: Node): boolean {
  return LOOPS.has(node.type) || FUNCTIONS.has(node.type);
}

/** The guard's recorder of thrown values (guard.js `thrown`), imported beside `tick` as `<guard>_thrown`. */
export const thrownRecorder = (guard: string) => `${guard}_thrown`;

/**
 * Puts `guard(line)` at the top of every loop body and function body, so that CPU-bound code
 * (loops, recursion, callbacks) passes through the guard, and passes every thrown value but a
 * `new …` one through the guard's recorder with its line (`agentLines`; a skill's lines are not the
 * agent's: `void 0`), so a thrown string keeps its line. Only inserts text within lines, so line
 * numbers stay those of the agent's code. Rejects what the sandbox does not offer (`import()`).
 * `guarded` is false when nothing but the wrapper (`program.body[0]`) can repeat and nothing is
 * thrown: such code runs once through and needs no guard (then only `extra` is inserted).
 */
export function instrument(
  js: string,
  program: Program,
  guard: string,
  extra: Insert[] = [],
  agentLines = true,
): { ok: true; js: string; guarded: boolean } | { ok: false; error: ExecutionError } {
  const wrapper = program.body[0];
  let guarded = false;
  const inserts: Insert[] = [...extra];
  let seq = extra.length;
  const lineOf = (node: Node) => (node.loc?.start.line ?? 2) - 1;
  const open = (pos: number, text: string) => inserts.push({ pos, text, order: seq++ });
  const close = (pos: number, text: string) => inserts.push({ pos, text, order: -seq++ });
  let forbidden: ExecutionError | undefined;

  visit(program as unknown as AnyNode, (node) => {
    if (node !== wrapper && repeats(node)) guarded = true;
    if (node.type === "ThrowStatement") {
      const thrown = node.argument as Node;
      if (thrown.type === "NewExpression") return;
      guarded = true;
      open(thrown.start, `${thrownRecorder(guard)}(${agentLines ? lineOf(node) : "void 0"}, (`);
      close(thrown.end, "))");
    } else if (node.type === "ImportExpression" || isImportMeta(node)) {
      const line = lineOf(node);
      const what = node.type === "ImportExpression" ? "import()" : "import.meta";
      forbidden ??= {
        name: "SyntaxError",
        message: `${what} is not available in the sandbox (line ${line}); use the provided globals instead`,
        line,
      };
    } else if (LOOPS.has(node.type)) {
      const body = node.body as Node;
      const tick = `${guard}(${lineOf(node)});`;
      if (body.type === "BlockStatement") open(body.start + 1, tick);
      else {
        open(body.start, `{${tick}`);
        close(body.end, "}");
      }
    } else if (FUNCTIONS.has(node.type)) {
      const body = node.body as Node;
      const line = lineOf(node);
      if (body.type === "BlockStatement") open(body.start + 1, `${guard}(${line});`);
      else {
        open(body.start, `(${guard}(${line}), `);
        close(body.end, ")");
      }
    }
  });
  if (forbidden) return { ok: false, error: forbidden };

  const kept = guarded ? inserts : [...extra];
  kept.sort((a, b) => a.pos - b.pos || Math.sign(a.order) - Math.sign(b.order) || a.order - b.order);
  let out = "";
  let at = 0;
  for (const insert of kept) {
    out += js.slice(at, insert.pos) + insert.text;
    at = insert.pos;
  }
  return { ok: true, js: out + js.slice(at), guarded };
}

/** Calls `fn` on `node` and every node below it; below a node for which `fn` returns false, none. */
export function visit(node: AnyNode, fn: (node: AnyNode) => unknown): void {
  if (fn(node) === false) return;
  for (const key of Object.keys(node)) {
    if (key === "loc") continue;
    const child = node[key];
    if (Array.isArray(child)) {
      for (const item of child) if (isNode(item)) visit(item, fn);
    } else if (isNode(child)) visit(child, fn);
  }
}

function isImportMeta(node: AnyNode): boolean {
  return node.type === "MetaProperty" && (node.meta as { name?: string } | undefined)?.name === "import";
}

function isNode(value: unknown): value is AnyNode {
  return typeof value === "object" && value !== null && typeof (value as Node).type === "string";
}
