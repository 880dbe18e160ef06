import { describe, expect, it } from "vitest";
import { SandboxRequest } from "../../shared/contract/sandbox";
import { WARM_PYTHON_WITH_MODULES } from "../../workers/sandbox/backends/python-warm";
import { runSandbox } from "../../workers/sandbox/run-sandbox";
import { TEST_API_KEY } from "../helpers/keys";
import { countingLoader, LIMITS, sandboxOn, sendToSandbox, TEST_ENGINES } from "../helpers/sandbox";

describe.each(TEST_ENGINES)("on %s", (engine) => {
  const { run, deps } = sandboxOn(engine);

  describe("execute: results", () => {
    it("runs TypeScript by default, with top-level await and return", async () => {
      const r = await run("const n: number = await Promise.resolve(20);\nreturn n * 2 + 2;");
      expect(r).toMatchObject({ result: 42, logs: [], stats: { toolCalls: 0, truncated: false } });
      expect(r.error).toBeUndefined();
      expect(r.stats.durationMs).toBeGreaterThanOrEqual(0);
    });

    it("runs JavaScript and a whole async arrow expression", async () => {
      expect((await run("return [1, 2].map(x => x * 3)", { language: "javascript" })).result).toEqual([3, 6]);
      expect((await run("async () => {\n  return 'arrow';\n}")).result).toBe("arrow");
    });

    it("supports TypeScript-only syntax (enums, generics, satisfies)", async () => {
      const code =
        "enum Color { Red, Green }\nconst id = <T,>(x: T): T => x;\nconst o = { a: 1 } satisfies Record<string, number>;\nreturn [Color.Green, id<string>('s'), o.a];";
      expect((await run(code)).result).toEqual([1, "s", 1]);
    });

    it("makes the result JSON-safe", async () => {
      const code = `
        const circular: Record<string, unknown> = { name: "loop" };
        circular.self = circular;
        return {
          undef: undefined, big: 12345678901234567890n, date: new Date(0), nan: NaN,
          map: new Map([["a", 1]]), objMap: new Map([[{ k: 1 }, "v"]]), set: new Set([1, 2]),
          circular, err: new TypeError("bad"), fn: function named() {}, bytes: new Uint8Array([1, 2]),
          list: [undefined, 1],
        };`;
      expect((await run(code)).result).toEqual({
        big: "12345678901234567890",
        date: "1970-01-01T00:00:00.000Z",
        nan: "NaN",
        map: { a: 1 },
        objMap: [[{ k: 1 }, "v"]],
        set: [1, 2],
        circular: { name: "loop", self: "[Circular]" },
        err: { name: "TypeError", message: "bad" },
        fn: "[Function: named]",
        bytes: [1, 2],
        list: [null, 1],
      });
    });

    it("has no result for undefined", async () => {
      const r = await run("const a = 1;");
      expect("result" in r).toBe(false);
    });

    it("captures console output of every level, in order, with the level shown", async () => {
      const code =
        "console.log('a', 1, { b: 2 });\nconsole.info('i');\nconsole.warn('w');\nconsole.error(new Error('e'));\nconsole.debug('d');\nreturn 0";
      expect((await run(code)).logs).toEqual([
        '[log] a 1 {"b":2}',
        "[info] i",
        "[warn] w",
        "[error] Error: e",
        "[debug] d",
      ]);
    });
  });

  describe("execute: errors", () => {
    it("reports a thrown error with the line in the submitted code and a mapped stack", async () => {
      const code =
        "const a: number = 1;\nfunction inner(): never {\n  throw new RangeError('too far');\n}\ninner();";
      const r = await run(code);
      expect(r.error).toMatchObject({ name: "RangeError", message: "too far", line: 3 });
      expect(r.error?.stack).toContain("at inner (code:3)");
      expect(r.error?.stack).not.toContain("runtime.js");
    });

    it("reports thrown non-errors", async () => {
      expect((await run("throw { code: 7 }")).error).toMatchObject({
        name: "Error",
        message: 'Uncaught {"code":7}',
      });
    });

    it("reports syntax errors with line and column before any isolate is made", async () => {
      const { loader, loads } = countingLoader();
      const r = await sendToSandbox(deps({}, {}, loader), { code: "const ok = 1;\nconst x: = 2;" });
      expect(r.error).toMatchObject({ name: "SyntaxError", line: 2, column: 10 });
      expect(loads).toHaveLength(0);
    });

    it("keeps logs written before an error", async () => {
      const r = await run("console.log('before');\nnull.x;");
      expect(r.logs).toEqual(["[log] before"]);
      expect(r.error).toMatchObject({ name: "TypeError", line: 2 });
    });

    it("refuses code over the size cap and timeouts over the maximum", async () => {
      expect((await run("return 1", {}, { maxCodeChars: 5 })).error?.message).toMatch(
        /8 characters; the limit is 5/,
      );
      expect((await run("return 1", { timeoutMs: 600_000 })).error?.message).toMatch(
        /above the maximum of 60000 ms/,
      );
    });
  });

  describe("execute: output cap", () => {
    it("truncates result + logs to the cap, says how much was cut, and sets stats.truncated", async () => {
      const code =
        "for (let i = 0; i < 200; i++) console.log('line', i, 'x'.repeat(50));\nreturn 'y'.repeat(5000);";
      const r = await run(code, {}, { maxOutputChars: 4_000 });
      expect(r.stats.truncated).toBe(true);
      const total = JSON.stringify(r.result).length + r.logs.reduce((s, l) => s + l.length, 0);
      expect(total).toBeLessThanOrEqual(4_200);
      expect(r.logs).toContainEqual(
        expect.stringMatching(/^\[truncated\] \d+ log lines affected, \d+ characters cut$/),
      );
      expect(r.logs.at(-1)).toMatch(/^\[truncated\] \d+ further log calls were not captured$/);
    });

    it("does not build huge values inside the isolate", async () => {
      const r = await run(
        "return Array.from({ length: 1_000_000 }, (_, i) => i);",
        {},
        { maxOutputChars: 2_000 },
      );
      expect(r.stats.truncated).toBe(true);
      const text = JSON.stringify(r.result);
      expect(text.length).toBeLessThanOrEqual(2_000);
      expect(r.truncation).toMatchObject({
        lowerBound: true,
        cuts: [{ path: "result", of: expect.any(Number) }],
      });
    });

    it("clips huge error messages", async () => {
      const r = await run("throw new Error('x'.repeat(100000))");
      expect(r.error!.message.length).toBeLessThanOrEqual(1_000);
    });
  });

  describe("execute: the loaded isolate", () => {
    it("gets no bindings, no network and the CPU limit", async () => {
      const { loader, loads } = countingLoader();
      await sendToSandbox(deps({}, {}, loader), { code: "return 1" });
      expect(loads).toHaveLength(1);
      expect(loads[0]!.env).toEqual({});
      expect(loads[0]!.globalOutbound).toBeNull();
      expect(loads[0]!.limits).toEqual({ cpuMs: LIMITS.cpuMs });
    });

    it("is fresh for every execution", async () => {
      const { loader, loads } = countingLoader();
      const exec = (code: string) => sendToSandbox(deps({}, {}, loader), { code });
      expect((await exec("globalThis.leak = 'secret'; Object.prototype.polluted = 1; return 1")).result).toBe(
        1,
      );
      expect((await exec("return [typeof globalThis.leak, typeof ({}).polluted]")).result).toEqual([
        "undefined",
        "undefined",
      ]);
      // quickjs: a fresh interpreter per execution in the team's one warm worker, loaded once.
      expect(loads).toHaveLength(engine === "isolate" ? 2 : 1);
    });

    it("cannot see the gateway's secrets or bindings", async () => {
      expect(TEST_API_KEY.length).toBeGreaterThan(0);
      const code =
        "return { keys: Object.getOwnPropertyNames(globalThis), env: typeof env, process: typeof process };";
      const r = await run(code);
      const text = JSON.stringify(r);
      expect(text).not.toContain(TEST_API_KEY);
      expect(text).not.toMatch(/LOADER|SESSIONS/);
      expect(r.result).toMatchObject({ env: "undefined", process: "undefined" });
    });
  });
});

describe("the sandbox side of the engine seam", () => {
  const request = {
    code: "return 1",
    language: "typescript" as const,
    cpuMs: 1_000,
    isolate: { timeoutMs: 5_000, maxSteps: 1_000, maxOutputChars: 1_000, maxArgChars: 1_000, egress: false },
  };

  it("refuses a request that names no placement (an engine name is not one)", () => {
    const parsed = SandboxRequest.safeParse({ ...request, engine: "quickjs" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["placement"]);
    const both = { warm: { id: "t:v:0", memoryBytes: 1_048_576 }, fresh: true };
    expect(SandboxRequest.safeParse({ ...request, placement: both }).success).toBe(false);
  });

  it("runs a warm placement in the team's warm worker and a fresh one in a Dynamic Worker of its own", async () => {
    const warm = countingLoader();
    const placement = { warm: { id: `seam-${Date.now()}`, memoryBytes: 32 * 1_048_576 } };
    const inWarm = await runSandbox(warm.loader, SandboxRequest.parse({ ...request, placement }), undefined);
    const fresh = countingLoader();
    const inFresh = await runSandbox(
      fresh.loader,
      SandboxRequest.parse({ ...request, placement: { fresh: true } }),
      undefined,
    );
    expect([inWarm.result, inFresh.result]).toEqual([1, 1]);
    expect(warm.loads.map((code) => code.mainModule)).toEqual(["engine.js"]);
    expect(fresh.loads.map((code) => code.mainModule)).toEqual(["runtime.js"]);
  });

  it("refuses Python with TypeScript skills in a warm worker, whose code cannot load them", async () => {
    const { loader, loads } = countingLoader();
    const built = SandboxRequest.parse({
      ...request,
      code: "1",
      language: "python",
      skills: [{ name: "double", version: 1, code: "return args.n * 2" }],
      placement: { warm: { id: `seam-py-${Date.now()}`, memoryBytes: 64 * 1_048_576 } },
    });
    const r = await runSandbox(loader, built, undefined);
    expect(r.error).toEqual({
      name: "SandboxError",
      message: `The sandbox failed: ${WARM_PYTHON_WITH_MODULES}`,
    });
    expect(loads).toHaveLength(0);
  });
});
