import { describe, expect, it } from "vitest";
import { ERROR_CAPS } from "../../shared/contract/caps";
import type { Engine } from "../../shared/contract/engine";
import type { ExecuteInput } from "../../shared/contract/execute";
import type { SandboxDeps } from "../../workers/gateway/execution/send-to-sandbox";
import { testContext } from "../helpers/context";
import { EchoBridge } from "../helpers/echo-bridge";
import { execute } from "../helpers/execute";
import { deps, sendToSandbox } from "../helpers/sandbox";

// Contract "Engine fidelity": the same answers on both engines for a last expression without
// `return`, a thrown non-Error, an error's own fields, and console lines streamed while code runs.
let workers = 0;
function runOn(engine: Engine, code: string, extra: Partial<SandboxDeps> & Partial<ExecuteInput> = {}) {
  const { language, ...more } = extra;
  const worker = { id: `fidelity-${Date.now()}-${workers++}`, memoryBytes: 32 * 2 ** 20 };
  const placement = engine === "quickjs" ? { warm: worker } : { fresh: true as const };
  return sendToSandbox(deps({}, { placement, ...more }), { code, ...(language ? { language } : {}) });
}

describe.each(["quickjs", "isolate"] as const)("on the %s engine", (engine) => {
  it("returns the value of a last expression statement in code without a return, and nothing else", async () => {
    const values: Array<[string, unknown]> = [
      ["const p = { agents: [1, 2, 3] };\np.agents.length", 3],
      ["const n = 40;\nawait Promise.resolve(n + 2)", 42],
      ["const n: number = 2;\n(n as number) * 21 // TypeScript", 42],
      ["const f = () => { return 1 };\nf() + 1", 2],
      ["(1, 2)", 2],
    ];
    for (const [code, value] of values)
      expect(await runOn(engine, code), code).toMatchObject({ result: value });
    const nothing = [
      "let x = 0;\nx = 5",
      "const x = 5",
      "if (true) { 5 }",
      "for (const x of [1]) x",
      "if (false) return 1;\n7",
    ];
    for (const code of nothing) expect(await runOn(engine, code), code).not.toHaveProperty("result");
    expect((await runOn(engine, "const a = null;\n\na.b")).error).toMatchObject({
      name: "TypeError",
      line: 3,
    });
  });

  it("gives a thrown non-Error its line and its value", async () => {
    expect((await runOn(engine, "const a = 1;\nthrow 'boom'")).error).toEqual({
      name: "Error",
      message: "Uncaught boom",
      line: 2,
      data: "boom",
    });
    const nested = await runOn(engine, "function f() {\n  throw { code: 1 };\n}\nf()", {
      language: "javascript",
    });
    expect(nested.error).toEqual({
      name: "Error",
      message: 'Uncaught {"code":1}',
      line: 2,
      data: { code: 1 },
    });
  });

  it("gives an error's own fields in error.data, bounded, and its line from where it was made", async () => {
    const r = await runOn(
      engine,
      `const e = new Error("not found");
Object.assign(e, { code: 404, status: "NOT_FOUND", details: { why: "x".repeat(5_000) } });

throw e`,
    );
    expect(r.error).toMatchObject({ name: "Error", message: "not found", line: 1 });
    expect(r.error?.data).toMatchObject({
      code: 404,
      status: "NOT_FOUND",
      details: { why: expect.any(String) },
    });
    expect(JSON.stringify(r.error?.data).length).toBeLessThanOrEqual(ERROR_CAPS.data);
    const plain = await runOn(engine, `throw new TypeError("plain")`);
    expect(plain.error).not.toHaveProperty("data");
  });

  it("streams console lines while code that calls no tool runs", async () => {
    const bridge = new EchoBridge();
    const r = await runOn(
      engine,
      `console.log("a");\nawait new Promise((r) => setTimeout(r, 300));\nconsole.log("b");\nreturn 1`,
      { bridge, liveLogs: true },
    );
    expect(r.result).toBe(1);
    expect(bridge.liveLines.flatMap((json) => JSON.parse(String(json)))).toEqual(["[log] a", "[log] b"]);
  });
});

describe("through the gateway, on the deployment's default engine", () => {
  it("answers a last expression after a tool call, and an error's code", async () => {
    const ctx = testContext();
    expect(ctx.config.sandbox.engine).toBe("quickjs");
    const counted = await execute(ctx, {
      code: "const p = await tools.demo.list_agents({});\np.agents.length",
    });
    expect(counted.result).toEqual(expect.any(Number));
    const failed = await execute(ctx, {
      code: 'const e = new Error("gone");\ne.code = 404;\nthrow e',
    });
    expect(failed.error).toMatchObject({ name: "Error", message: "gone", line: 1, data: { code: 404 } });
  });
});
