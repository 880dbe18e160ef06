import { describe, expect, it } from "vitest";
import { PARTS_MODULE, runtimeModules, usesBridge } from "../../workers/sandbox/parts";
import { countingLoader, sandboxOn, sendToSandbox, TEST_ENGINES } from "../helpers/sandbox";

// The sandbox runtime's optional parts are loaded only for code that names their globals
// (workers/sandbox/parts.ts): every module is compiled again in each fresh isolate.
const OPTIONAL = ["tools.js", "session.js", "invoke-skills.js", "network.js"];
const loadedParts = (modules: Record<string, unknown>) => OPTIONAL.filter((m) => m in modules);

describe("which runtime parts an execution gets", () => {
  it("only the core for code that names none of them", () => {
    const modules = runtimeModules(["return 1 + 1"], { guarded: false });
    expect(loadedParts(modules)).toEqual([]);
    expect(Object.keys(modules).sort()).toEqual(["parts.js", "runtime.js"]);
    expect(modules[PARTS_MODULE]).toContain('"state"');
    expect(modules["guard.js"]).toBeUndefined();
  });

  it("the guard when a compiled module imports it, re-exported for the runtime", () => {
    const modules = runtimeModules(["for (;;) {}"], { guarded: true });
    expect(modules["guard.js"]).toBeDefined();
    expect(modules[PARTS_MODULE]).toContain('from "./guard.js"');
  });

  it("a part for each global named, in code, strings or comments", () => {
    expect(loadedParts(runtimeModules(["return await tools.demo.list({})"], { guarded: false }))).toEqual([
      "tools.js",
    ]);
    expect(
      loadedParts(runtimeModules(["return await getToolDefinition('a.b')"], { guarded: false })),
    ).toEqual(["tools.js"]);
    expect(loadedParts(runtimeModules(["// keeps state\nreturn 1"], { guarded: false }))).toEqual([
      "session.js",
    ]);
    expect(loadedParts(runtimeModules(["return 'workspace'"], { guarded: false }))).toEqual(["session.js"]);
    expect(loadedParts(runtimeModules(["return skills.list()"], { guarded: false }))).toEqual([
      "invoke-skills.js",
    ]);
    expect(
      loadedParts(runtimeModules(["return (await fetch('https://x')).status"], { guarded: false })),
    ).toEqual(["network.js"]);
  });

  it("parts a loaded skill's code names, though the caller's code does not", () => {
    const modules = runtimeModules(["return skills.report({})", "return await state.get('k')"], {
      guarded: false,
    });
    expect(loadedParts(modules)).toEqual(["session.js", "invoke-skills.js"]);
  });

  it("the loaded skills' modules only with the skills part, which re-exports their index", () => {
    const skillModules = { "skills.js": "export default {};", "skill-report.js": "export default 1;" };
    const withSkills = runtimeModules(["return skills.report({})"], { guarded: false }, skillModules);
    expect(withSkills["skill-report.js"]).toBeDefined();
    expect(withSkills[PARTS_MODULE]).toContain('from "./skills.js"');
    const without = runtimeModules(["return 1"], { guarded: false }, skillModules);
    expect(Object.keys(without).sort()).toEqual(["parts.js", "runtime.js"]);
  });

  it("the bridge only for code with a part that uses it", () => {
    expect(usesBridge(runtimeModules(["for (;;) {}"], { guarded: true }))).toBe(false);
    expect(usesBridge(runtimeModules(["return await tools.demo.list({})"], { guarded: false }))).toBe(true);
    expect(usesBridge(runtimeModules(["return await state.get('k')"], { guarded: false }))).toBe(true);
  });

  it("not for a word that merely contains a global's name", () => {
    expect(
      loadedParts(
        runtimeModules(["const restated = 1, mytools = 2; return restated + mytools"], { guarded: false }),
      ),
    ).toEqual([]);
  });
});

describe.each(TEST_ENGINES)("in a real sandbox on %s", (engine) => {
  const { run, deps } = sandboxOn(engine);

  describe("in a real sandbox", () => {
    it("loads only the core for code that names no part, and runs it", async () => {
      const { loader, executions } = countingLoader();
      const r = await sendToSandbox(deps({}, {}, loader), { code: "return 40 + 2" });
      expect(r.result).toBe(42);
      expect(executions).toHaveLength(1);
      expect(loadedParts(executions[0] ?? {})).toEqual([]);
      expect(executions[0]?.["guard.js"]).toBeUndefined();
    });

    it("loads the guard for code with a loop or a function, and it still stops them", async () => {
      const { loader, executions } = countingLoader();
      const r = await sendToSandbox(deps({ timeoutMs: 300 }, {}, loader), {
        code: "const f = () => 1; while (true) f();",
      });
      expect(executions[0]?.["guard.js"]).toBeDefined();
      expect(r.error?.name).toBe("TimeoutError");
    });

    it("times out code without a guard that waits too long, with the guard's message", async () => {
      const r = await sendToSandbox(deps({ timeoutMs: 200 }), {
        code: "await new Promise(() => {}); return 1",
      });
      expect(r.error).toMatchObject({
        name: "TimeoutError",
        message: expect.stringMatching(/^Execution timed out after 200 ms; /),
      });
    });

    it("throws NotLoadedError for a global reached by a name built at run time", async () => {
      const r = await run('const g = globalThis; return await g["sta" + "te"].get("k");');
      expect(r.error?.name).toBe("NotLoadedError");
      expect(r.error?.message).toContain('contains the word "state"');
      const f = await run('return await globalThis["fe" + "tch"]("https://example.com");');
      expect(f.error?.name).toBe("NotLoadedError");
    });

    it("sets the global up when the code names it anywhere, even in a comment", async () => {
      const r = await run('// uses state\nreturn typeof globalThis["sta" + "te"].get;');
      expect(r.error).toBeUndefined();
      expect(r.result).toBe("function");
    });

    it("reaches callTool('skills.<name>') only with the skills part, saying why when it is absent", async () => {
      const r = await run('return await callTool("ski" + "lls.x", {});');
      expect(r.error?.name).toBe("NotLoadedError");
      expect(r.error?.message).toContain("skills");
    });
  });
});
