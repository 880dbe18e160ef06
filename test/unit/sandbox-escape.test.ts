import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { compileAgentCode } from "../../workers/sandbox/compile";
import { HANG_GUARD_MS } from "../helpers/hang-guard";
import { countingLoader, sandboxOn, sendToSandbox, TEST_ENGINES } from "../helpers/sandbox";

// Code that closes the function it is wrapped in and puts statements at the module's top level,
// where the guard never runs and `import` declarations work. Each must be refused before any
// isolate exists, with a SyntaxError that names the line.
const ESCAPES: Array<{ name: string; code: string; language?: "javascript" | "typescript"; line?: number }> =
  [
    {
      name: "the red-team original (JavaScript)",
      code: "return 1;\n}\nlet i = 0; while (true) { i++; }\nfunction _() {",
      language: "javascript",
      line: 2,
    },
    {
      name: "an import declaration reaching env",
      code: '}\nimport { env } from "cloudflare:workers";\nexport const x = env;\nfunction _() {',
      language: "javascript",
      line: 1,
    },
    {
      name: "a comment around the brace",
      code: "/* a */ } /* b */\nfor (;;) {}\nfunction _() { // c",
      line: 1,
    },
    {
      name: "a template literal before the brace",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the agent's code holds a template literal
      code: "const t = `${1}`; }\nwhile (true) {}\nfunction _() {",
      line: 1,
    },
    {
      name: "a class static block at top level",
      code: "class A { m() {} } }\nclass B { static { for (;;) {} } }\nfunction _() {",
      line: 1,
    },
    { name: "the arrow form", code: "async () => { return 1 } }\nfor (;;) {}\nconst f = () => {", line: 1 },
    {
      name: "TypeScript annotations",
      code: "const x: number = 1; }\nwhile (true) {}\nfunction f(): void {",
      language: "typescript",
      line: 1,
    },
    {
      name: "a TypeScript interface and a label",
      code: "interface X { a: number } }\nlabel: for (;;) {}\nfunction g() {",
      language: "typescript",
      line: 1,
    },
    {
      name: "an export default that rewrites the entry",
      code: "}\nexport const run = 1;\nfunction _() {",
      language: "javascript",
      line: 1,
    },
    {
      name: "a getter run at top level",
      code: "}\nconst o = { get x() { for (;;) {} } }; o.x;\nfunction _() {",
      line: 1,
    },
    {
      name: "a top-level await that never settles",
      code: "}\nawait new Promise(() => {});\nfunction _() {",
      line: 1,
    },
    {
      name: "a U+2028 line separator ending a comment",
      code: "// note\u2028}\nwhile (true) {}\nfunction _() {",
      language: "javascript",
    },
    {
      name: "an object literal closing early",
      code: "const a = { b: 1 }; }; for (;;) {} function _() {",
      line: 1,
    },
    { name: "import.meta inside the body", code: "return import.meta.url", language: "javascript", line: 1 },
    {
      name: "dynamic import",
      code: 'return await import("cloudflare:workers")',
      language: "javascript",
      line: 1,
    },
  ];

describe.each(TEST_ENGINES)("on %s", (engine) => {
  const { run, deps } = sandboxOn(engine);

  describe("code cannot leave the function it runs in", () => {
    for (const attempt of ESCAPES) {
      it(`refuses ${attempt.name}`, async () => {
        const compiled = compileAgentCode(attempt.code, attempt.language ?? "typescript");
        expect(compiled.ok).toBe(false);
        const { loader, loads } = countingLoader();
        const started = Date.now();
        const r = await sendToSandbox(deps({}, {}, loader), {
          code: attempt.code,
          language: attempt.language,
        });
        expect(r.error?.name).toBe("SyntaxError");
        if (attempt.line !== undefined) expect(r.error?.line).toBe(attempt.line);
        expect(loads).toHaveLength(0);
        const next = await run("return 6 * 7");
        expect(next.result).toBe(42);
        expect(Date.now() - started).toBeLessThan(HANG_GUARD_MS);
      });
    }

    it("says what was wrong", async () => {
      const r = await run("return 1;\n}\nwhile (true) {}\nfunction _() {", { language: "javascript" });
      expect(r.error?.message).toMatch(/Unexpected "}" at line 2: it closes the function your code runs in/);
    });

    it("still accepts balanced code with braces in strings, comments, templates and regexes", async () => {
      const code =
        'const s = "}"; // }\n/* } */ const t = `}}`; const re = /}/;\nreturn [s, t, re.test("}")];';
      expect((await run(code)).result).toEqual(["}", "}}", true]);
    });
  });

  describe("hostile data from the isolate is bounded before the host reads it", () => {
    it("maps a 100,000-character stack at once (no quadratic regex)", async () => {
      const started = Date.now();
      const r = await run("const e = new Error('x'); e.stack = 'E\\n    at ' + 'a'.repeat(100000); throw e;");
      expect(r.error?.name).toBe("Error");
      expect(Date.now() - started).toBeLessThan(HANG_GUARD_MS);
      expect((r.error?.stack ?? "").length).toBeLessThanOrEqual(8_000);
    });

    // An isolate has its 128 MB; a QuickJS interpreter EXEC_MEMORY_MB (32), three of these at once.
    const chars = engine === "isolate" ? 60_000_000 : 8_000_000;
    it(`cuts a ${chars / 1e6} MB result, log line and error inside the sandbox`, async () => {
      const big = `'x'.repeat(${chars})`;
      const result = await run(`return ${big}`);
      expect(result.stats.truncated).toBe(true);
      expect(JSON.stringify(result).length).toBeLessThan(60_000);
      const logged = await run(`console.log(${big}); return 1`);
      expect(logged.result).toBe(1);
      expect(JSON.stringify(logged).length).toBeLessThan(60_000);
      const thrown = await run(`const e = new Error(${big}); e.name = ${big}; e.stack = ${big}; throw e;`);
      expect(JSON.stringify(thrown).length).toBeLessThan(20_000);
      expect(thrown.error?.message).toMatch(/characters cut/);
    });

    it("keeps using the built-ins it captured when the code replaces them", async () => {
      const r = await run("JSON.stringify = () => 'x'.repeat(50_000_000); return 1");
      expect(r.result).toBe(1);
    });

    for (const [what, forged] of [
      ["an oversized report", '"x".repeat(20_000_000)'],
      ["a report that is not text", "({ resultJson: '1' })"],
      ["a report of the wrong shape", 'JSON.stringify({ logs: "no" })'],
    ] as const) {
      it(`refuses ${what} from a runtime that was tampered with`, async () => {
        // The main module answers with the forged report: the isolate's runtime.js, or the quickjs
        // warm worker's engine (under an id of its own, not the team's real warm worker).
        const main = `import { WorkerEntrypoint } from "cloudflare:workers";
  export default class extends WorkerEntrypoint { runAgentCode() { return ${forged}; } run() { return ${forged}; } }`;
        const forge = (code: WorkerLoaderWorkerCode) => ({
          ...code,
          modules: { ...code.modules, [code.mainModule]: main },
        });
        const loader = {
          load: (code: WorkerLoaderWorkerCode) => env.LOADER.load(forge(code)),
          get: (
            name: string | null,
            getCode: () => WorkerLoaderWorkerCode | Promise<WorkerLoaderWorkerCode>,
          ) => env.LOADER.get(`${name}#forged ${what}`, async () => forge(await getCode())),
        } satisfies WorkerLoader;
        const r = await sendToSandbox(deps({}, {}, loader), { code: "return 1" });
        expect(r.error).toMatchObject({ name: "SandboxError" });
        expect(r.error?.message).toMatch(/report .*tamper/);
        expect(JSON.stringify(r).length).toBeLessThan(2_000);
      });
    }
  });
});
