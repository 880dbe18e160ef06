import { beforeAll, describe, expect, inject, it } from "vitest";
import { gatewayUrl, restExecute, teamWithKey } from "./client";

// Skills across languages (contract "Skills", "Python"): a skill saved from Python is Python unless
// it says otherwise, runs in the interpreter of the Python code that calls it, and says its language;
// TypeScript code cannot run it; a skill that fails inside, called from Python, counts as an error.
// One team of its own, on the stack's engine.
const engine = inject("engine");
let auth: Record<string, string>;
const py = (code: string) => restExecute({ code, language: "python" }, auth).then((r) => r.body);
const ts = (code: string) => restExecute({ code }, auth).then((r) => r.body);

/** Python whose body also parses as JavaScript (an assignment inside a call): it was saved as TypeScript. */
const BY_STATUS = 'stats = await tools.demo.ticket_stats(groupBy="status")\nreturn stats';

beforeAll(async () => {
  auth = await teamWithKey(`e2e-pyskills-${engine}`, { engine, servers: { demo: { service: "DEMO" } } });
}, 60_000);

describe(`Python skills (${engine} engine)`, () => {
  it("a skill saved from Python is Python: Python calls it, TypeScript gets SkillLanguageError, get/list/search say so", async () => {
    const saved = await py(
      `await skills.save("py_by_status", "Ticket counts by status", ${JSON.stringify(BY_STATUS)})`,
    );
    expect(saved).toMatchObject({ result: { name: "py_by_status", version: 1 } });
    const direct = await py('await tools.demo.ticket_stats(groupBy="status")');
    const called = await py("await skills.py_by_status()");
    expect(called.error).toBeUndefined();
    expect(called.result).toEqual(direct.result);
    expect(called.stats.calls).toContainEqual(
      expect.objectContaining({ name: "skills.py_by_status", count: 1, errors: 0 }),
    );
    const shown = await py(
      '[(await skills.get("py_by_status"))["language"], [s["language"] for s in await skills.list() if s["name"] == "py_by_status"]]',
    );
    expect(shown.result).toEqual(["python", ["python"]]);
    const fromTs = await ts("return await skills.py_by_status({});");
    expect(fromTs.error).toMatchObject({ name: "SkillLanguageError" });
    const found = (await (
      await fetch(`${gatewayUrl()}/v1/tools?q=${encodeURIComponent("ticket counts by status")}`, {
        headers: auth,
      })
    ).json()) as { tools: Array<{ name: string; language?: string }> };
    expect(found.tools.find((t) => t.name === "skills.py_by_status")).toMatchObject({ language: "python" });
  });

  it("skills.save takes language in both languages", async () => {
    const fromPy = await py(
      'await skills.save("ts_from_py", "doubles n", "return args.n * 2;", language="typescript")',
    );
    expect(fromPy.error).toBeUndefined();
    const fromTs = await ts(
      'return await skills.save({ name: "py_from_ts", description: "triples n", code: "return args[\\"n\\"] * 3", language: "python" });',
    );
    expect(fromTs.error).toBeUndefined();
    expect((await ts("return await skills.ts_from_py({ n: 4 });")).result).toBe(8);
    expect((await py("[await skills.ts_from_py(n=4), await skills.py_from_ts(n=4)]")).result).toEqual([
      8, 12,
    ]);
    const types = await py('[(await skills.get(n))["language"] for n in ("ts_from_py", "py_from_ts")]');
    expect(types.result).toEqual(["typescript", "python"]);
  });

  it("refuses a Python skill with a syntax error when Python saves it, naming the skill and line", async () => {
    const r = await py('await skills.save("py_bad", "d", "x = 1\\ndef f(:\\n    pass")');
    expect(r.error).toMatchObject({
      name: "SyntaxError",
      message: expect.stringContaining("skills.py_bad, line 2"),
    });
  });

  it("counts a skill that fails inside, called from Python, as an error, and says where it failed", async () => {
    await ts(
      'return await skills.save({ name: "ts_broken", description: "d", code: "throw new RangeError(\\"bad\\");" });',
    );
    await py(
      'await skills.save("py_broken", "d", "a = 1\\nb = a + 1\\nraise ValueError(f\\"bad value {b}\\")")',
    );
    const caught = await py(`out = []
for call in (skills.ts_broken, skills.py_broken):
    try:
        await call()
    except Exception as e:
        out.append(type(e).__name__)
out`);
    expect(caught.result).toEqual(["RangeError", "ValueError"]);
    expect(caught.stats.calls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "skills.ts_broken", count: 1, errors: 1 }),
        expect.objectContaining({ name: "skills.py_broken", count: 1, errors: 1 }),
      ]),
    );
    const thrown = await py("x = 0\nawait skills.py_broken()");
    expect(thrown.error).toMatchObject({
      name: "ValueError",
      line: 2,
      message: "in skills.py_broken line 3: bad value 2",
    });
    expect(thrown.error?.stack).toContain('File "skills.py_broken", line 3');
  });

  it("stops a Python skill calling itself with a RecursionError naming the chain", async () => {
    await py(
      'await skills.save("py_loop", "d", "if args.get(\\"again\\", True):\\n    return await skills.py_loop()")',
    );
    const r = await py("await skills.py_loop()");
    expect(r.error).toMatchObject({
      name: "RecursionError",
      message: expect.stringContaining("py_loop → py_loop"),
    });
  });
});
