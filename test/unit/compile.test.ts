import { parse } from "acorn";
import { transform } from "sucrase";
import { describe, expect, it } from "vitest";
import { compileAgentCode } from "../../workers/sandbox/compile";
import { isSealedModule } from "../../workers/sandbox/compile/structure";
import { WRAPPER_HEAD } from "../../workers/sandbox/compile/syntax";

function compiled(code: string, language: "typescript" | "javascript" = "typescript"): string {
  const out = compileAgentCode(code, language);
  if (!out.ok) throw new Error(`unexpected compile error: ${out.error.message}`);
  return out.module;
}

const guardName = (module: string) => /import \{ tick as (__guard_[0-9a-f]{32}),/.exec(module)?.[1];

describe("compileAgentCode", () => {
  it("strips TypeScript and keeps every line where it was", () => {
    const module = compiled("const x: number = 1;\ninterface A { b: string }\nreturn x as number;");
    const lines = module.split("\n");
    expect(lines[1]).toBe("const x = 1;");
    expect(lines[3]).toMatch(/^return x\s*;$/);
  });

  it("imports the guard under a random name, different each time", () => {
    const a = guardName(compiled("return [1].map((x) => x)"));
    const b = guardName(compiled("return [1].map((x) => x)"));
    expect(a).toBeDefined();
    expect(a).not.toBe(b);
  });

  it.each([
    ["while", "while (true) {}"],
    ["for", "for (;;) x++;"],
    ["do-while", "do {} while (true)"],
    ["for-of", "for (const a of b) ;"],
    ["for-in", "for (const k in o) { }"],
  ])("guards the body of a %s loop with its line", (_kind, loop) => {
    const module = compiled(`let x = 0;\n${loop}`, "javascript");
    const guard = guardName(module)!;
    expect(module.split("\n")[2]).toContain(`${guard}(2);`);
  });

  it("guards function bodies, including arrow expression bodies and methods", () => {
    const module = compiled(
      "const f = (a) => a + 1;\nfunction g() { return 1 }\nclass C { m() {} }",
      "javascript",
    );
    const guard = guardName(module)!;
    const lines = module.split("\n");
    expect(lines[1]).toContain(`(${guard}(1), a + 1)`);
    expect(lines[2]).toContain(`{${guard}(2); return 1 }`);
    expect(lines[3]).toContain(`m() {${guard}(3);}`);
  });

  it("nests non-block loop bodies and arrow bodies correctly", () => {
    const module = compiled("for (;;) for (;;) (a) => b", "javascript");
    const guard = guardName(module)!;
    expect(module.split("\n")[1]).toBe(
      `for (;;) {${guard}(1);for (;;) {${guard}(1);(a) => (${guard}(1), b)}}`,
    );
  });

  it("gives code that nothing in can repeat no guard: it runs once through", () => {
    const out = compileAgentCode(
      "const a = await tools.x.y({ n: 1 });\nreturn a.total > 2 ? a : null;",
      "typescript",
    );
    expect(out).toMatchObject({ ok: true, guarded: false });
    if (out.ok)
      expect(out.module).toBe(
        "export default async function __agent__() {\nconst a = await tools.x.y({ n: 1 });\nreturn a.total > 2 ? a : null;\n}",
      );
  });

  it.each([
    ["a loop", "let i = 0; while (i < 3) i++; return i"],
    ["an arrow function", "return [1, 2].map((x) => x * 2)"],
    ["a method", "return { get x() { return 1 } }.x"],
    ["a class", "class A { m() {} } return new A()"],
    ["a whole async arrow", "async () => 1"],
  ])("guards code with %s", (_what, code) => {
    const out = compileAgentCode(code, "javascript");
    expect(out).toMatchObject({ ok: true, guarded: true });
    if (out.ok) expect(guardName(out.module)).toBeDefined();
  });

  it("calls a whole async arrow expression", () => {
    expect(compiled("async () => { return 5 }").split("\n")[1]).toMatch(
      /^return \(async \(\) => \{.*return 5 \}\)\(\)$/,
    );
  });

  it("returns a last expression statement on its own line, unless the code returns or assigns; a skill returns what it returns", () => {
    const out = compileAgentCode("const a: number = 1;\n(a, a + 1) // two", "typescript");
    expect(out).toMatchObject({ ok: true, guarded: false });
    expect(out.ok && out.module.split("\n")[2]).toBe("return ((a, a + 1)) // two");
    expect(compiled("if (a) return 1;\na + 1").split("\n")[2]).toBe("a + 1");
    expect(compiled("let a;\na = 1").split("\n")[2]).toBe("a = 1");
    const skill = compileAgentCode("args.a + 1", "typescript", "skill");
    expect(skill.ok && skill.module.split("\n")[1]).toBe("args.a + 1");
  });

  it("passes a thrown value through the guard's recorder with its line, but not a `new` one", () => {
    const module = compiled("const a = 1;\nif (a) throw 'no', 'way'");
    const guard = guardName(module)!;
    expect(module.split("\n")[2]).toBe(`if (a) throw ${guard}_thrown(2, ('no', 'way'))`);
    expect(compileAgentCode("throw new Error('x')", "typescript")).toMatchObject({
      ok: true,
      guarded: false,
    });
    const skill = compileAgentCode("throw 'no'", "typescript", "skill");
    expect(skill.ok && skill.module.split("\n")[1]).toMatch(/^throw __guard_\w+_thrown\(void 0, \('no'\)\)$/);
  });

  it("reports TypeScript syntax errors with the agent's line and column", () => {
    const out = compileAgentCode("const a = 1;\nconst x = ;", "typescript");
    expect(out).toMatchObject({ ok: false, error: { name: "SyntaxError", line: 2, column: 11 } });
  });

  it("reports JavaScript syntax errors with the agent's line", () => {
    const out = compileAgentCode("let a = 1;\n\nlet let = 2;", "javascript");
    expect(out).toMatchObject({ ok: false, error: { name: "SyntaxError", line: 3 } });
  });

  it("puts an error at the end of the code on its last line", () => {
    const out = compileAgentCode("foo(\n  1,", "javascript");
    expect(out).toMatchObject({ ok: false, error: { name: "SyntaxError", line: 2 } });
  });

  it("rejects import() with the line", () => {
    const out = compileAgentCode("const g = 1;\nawait import('./guard.js')", "javascript");
    expect(out).toMatchObject({ ok: false, error: { name: "SyntaxError", line: 2 } });
    if (!out.ok) expect(out.error.message).toContain("import()");
  });

  it("rejects static imports (the code is a function body)", () => {
    const out = compileAgentCode("import x from 'y';\nreturn x", "typescript");
    expect(out.ok).toBe(false);
  });

  // TypeScript code without `<` that parses as JavaScript skips sucrase (syntax.ts). That is only
  // right if sucrase would have left it as it is: these are the JavaScript forms whose words are
  // TypeScript keywords or that TypeScript reads differently elsewhere.
  it.each([
    "class A { x; y = 1; static z; #p; static { this.q = 1 } constructor(a) { this.a = a } }\nreturn new A(1)",
    "class C { declare = 1; readonly = 2; public = 3; private() {} static async *gen() {} get x() { return 1 } }",
    "class D { private\n x = 1; abstract\n y; declare\n z }",
    "let declare = 1; declare\nlet y = 2; return y",
    "let type = 1; type\n= 2; let abstract = 3; abstract\nclass B {}",
    "let as = 1, satisfies = 2, keyof = 3, infer = 4, is = 5, asserts = 6; return as + satisfies",
    "let namespace = 1; namespace\nfoo: 1; let module = {}; module\n.x = 2; let global = 1; global\n{ }",
    "const { a, b: [c] = [] } = { a: 1 }; label: for (const x of [1]) { continue label } return a ?? c?.d",
    "function f(a = 1, ...rest) { return arguments.length + rest.length } return f(1)",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the agent's code holds a template literal
    "return `${1}${`x${2}`}` + /a>b/.source + (1 >> 2 >>> 3) + (x => x * 2)(1)",
    "var x = 1 /* a: number */; return x // as string",
    "const enum_ = 1, interface_ = 2, implements_ = 3; return { enum: enum_, public: interface_ }",
    "const o = { async *g() { yield 1 }, get a() { return 1 }, set a(v) {}, [`k`]: 1, type: 1, declare: 2 }",
  ])("takes JavaScript without < as it is, as sucrase would: %s", (code) => {
    const js = `${WRAPPER_HEAD}\n${code}\n}`;
    expect(() => parse(js, { ecmaVersion: "latest", sourceType: "module" })).not.toThrow();
    expect(transform(js, { transforms: ["typescript"], disableESTransforms: true }).code).toBe(js);
    const unguarded = (module: string) => module.replaceAll(guardName(module)!, "guard");
    expect(unguarded(compiled(code))).toBe(unguarded(compiled(code, "javascript")));
  });

  it("still strips TypeScript that also has no <", () => {
    expect(compiled("const x: number = 1;\nreturn x!").split("\n").slice(1, 3)).toEqual([
      "const x = 1;",
      "return x",
    ]);
  });

  it("reads f < T > (x) as TypeScript reads it: a generic call", () => {
    expect(compiled("const f = (a) => a, T = 1, x = 2;\nreturn f < T > (x)").split("\n")[2]).toMatch(
      /^return f\s*\(x\)$/,
    );
  });

  it("seals an unguarded module only if nothing in it can repeat", () => {
    const wrapped = (body: string) => `export default async function __agent__() {\n${body}\n}`;
    expect(isSealedModule(wrapped("return 1"), false)).toBe(true);
    expect(isSealedModule(wrapped("while (true) {}"), false)).toBe(false);
    expect(isSealedModule(wrapped("return [1].map(x => x)"), false)).toBe(false);
    expect(isSealedModule(wrapped("return { m() {} }"), false)).toBe(false);
    expect(isSealedModule(`import x from "./guard.js"; ${wrapped("return 1")}`, false)).toBe(false);
    expect(isSealedModule(`${wrapped("return 1")} while (true) {}`, false)).toBe(false);
    expect(isSealedModule(wrapped("return 1"), true)).toBe(false);
  });
});
