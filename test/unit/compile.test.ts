import { describe, expect, it } from "vitest";
import { compileAgentCode } from "../../workers/sandbox/compile";

function compiled(code: string, language: "typescript" | "javascript" = "typescript"): string {
  const out = compileAgentCode(code, language);
  if (!out.ok) throw new Error(`unexpected compile error: ${out.error.message}`);
  return out.module;
}

const guardName = (module: string) => /import \{ tick as (__guard_[0-9a-f]{32}) \}/.exec(module)?.[1];

describe("compileAgentCode", () => {
  it("strips TypeScript and keeps every line where it was", () => {
    const module = compiled("const x: number = 1;\ninterface A { b: string }\nreturn x as number;");
    const lines = module.split("\n");
    expect(lines[1]).toBe("const x = 1;");
    expect(lines[3]).toMatch(/^return x\s*;$/);
  });

  it("imports the guard under a random name, different each time", () => {
    const a = guardName(compiled("return 1"));
    const b = guardName(compiled("return 1"));
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

  it("calls a whole async arrow expression", () => {
    expect(compiled("async () => { return 5 }").split("\n")[1]).toMatch(
      /^return \(async \(\) => \{.*return 5 \}\)\(\)$/,
    );
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
});
