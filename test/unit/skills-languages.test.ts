// A skill's language: what a save says (TypeScript when it says nothing), kept with the version,
// shown by get, list and discovery; what TypeScript code gets when it calls a Python skill. Python
// code calling skills runs end to end only (test/e2e/skills.e2e.test.ts).
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { GatewayEnv } from "../../workers/gateway/env";
import { definition, search } from "../../workers/gateway/operations/discovery";
import { sandboxSkills, skillsForExecution } from "../../workers/gateway/skills/resolve";
import { renderSkillMd } from "../../workers/gateway/skills/skill-md";
import { SkillStore } from "../../workers/gateway/skills/store";
import { testContext } from "../helpers/context";
import { execute } from "../helpers/execute";

const gatewayEnv = env as unknown as GatewayEnv;
/** Python that also parses as JavaScript (an assignment inside a call): it failed as TypeScript. */
const PYTHON_AS_JS = 'stats = await tools.demo.ticket_stats(groupBy="status")\nreturn stats';

let teams = 0;
function teamStore() {
  const team = `lang-${++teams}-${crypto.randomUUID().slice(0, 8)}`;
  const ctx = { ...testContext(), team };
  return { ctx, team, store: new SkillStore(gatewayEnv, team, ctx.config.skills) };
}

describe("a skill's language", () => {
  it("is what the save says: Python is kept as it is (not compiled here), no language is TypeScript", async () => {
    const { store } = teamStore();
    await store.save({ name: "py", description: "d", code: PYTHON_AS_JS, language: "python" });
    await store.save({ name: "py_syntax", description: "d", code: "def f(:", language: "python" });
    await store.save({ name: "ts", description: "d", code: "return 1;" });
    await store.save({ name: "js", description: "d", code: "return 2;", language: "javascript" });
    expect(await store.get("py")).toMatchObject({ code: PYTHON_AS_JS, language: "python" });
    expect((await store.list()).map((s) => [s.name, s.language])).toEqual([
      ["js", "javascript"],
      ["py", "python"],
      ["py_syntax", "python"],
      ["ts", "typescript"],
    ]);
    expect(renderSkillMd((await store.get("py"))!)).toMatch(
      /^---\nname: "py"\ndescription: "d"\nlanguage: python\nversion: 1\n---\n[\s\S]*```python\n/,
    );
  });

  it("reads a version saved before skills had a language as TypeScript", async () => {
    const { store, team } = teamStore();
    await store.save({ name: "old", description: "d", code: "return 1;" });
    const key = `skills/v1/${team}/old/1.json`;
    const stored = (await (await gatewayEnv.SKILLS.get(key))?.json()) as Record<string, unknown>;
    const { language: _dropped, ...before } = stored;
    await gatewayEnv.SKILLS.put(key, JSON.stringify(before));
    await runInDurableObject(
      gatewayEnv.SKILL_INDEX.get(gatewayEnv.SKILL_INDEX.idFromName(team)),
      (_i, state) => {
        state.storage.sql.exec("UPDATE versions SET language = NULL");
      },
    );
    const other = new SkillStore(gatewayEnv, team, testContext().config.skills);
    expect(await other.get("old", 1)).toMatchObject({ code: "return 1;", language: "typescript" });
    expect((await other.list())[0]).toMatchObject({ name: "old", language: "typescript" });
  });

  it("is shown by search_tools and get_tool_definition for skills.<name>", async () => {
    const { ctx, store } = teamStore();
    await store.save({
      name: "count_by_status",
      description: "Counts tickets by status",
      code: PYTHON_AS_JS,
      language: "python",
    });
    const found = await search(ctx, { query: "count tickets by status", detail: "summary" });
    expect(found.tools.find((t) => t.name === "skills.count_by_status")).toMatchObject({
      language: "python",
    });
    expect(await definition(ctx, "skills.count_by_status")).toMatchObject({ language: "python" });
  });
});

describe("the sandbox's share of an execution's skills", () => {
  it("sends TypeScript skills as modules and Python ones to Python's runtime; both runtimes ask the gateway about Python names", async () => {
    const { ctx, store } = teamStore();
    await store.save({ name: "ts", description: "d", code: "return 1;" });
    await store.save({ name: "py", description: "d", code: "return 2", language: "python" });
    const skills = await skillsForExecution(ctx, "skills.ts(); skills.py(); skills.ghost()");
    const python = sandboxSkills(skills, "python");
    expect(python.modules.map((s) => s.name)).toEqual(["ts"]);
    expect(python.pythonSkills).toEqual([{ name: "py", code: "return 2" }]);
    expect(python.missingSkills.sort()).toEqual(["ghost", "py"]);
    expect(sandboxSkills(skills, "typescript").pythonSkills).toEqual([]);
  });
});

describe("TypeScript code calling a Python skill", () => {
  it("gets SkillLanguageError, counted as a failed call", async () => {
    const { ctx, store } = teamStore();
    await store.save({ name: "py_only", description: "d", code: PYTHON_AS_JS, language: "python" });
    const r = await execute(ctx, { code: "return await skills.py_only({});" });
    expect(r.error).toMatchObject({
      name: "SkillLanguageError",
      message: expect.stringContaining("skills.py_only is a Python skill: only Python code"),
    });
    expect(r.stats.calls).toEqual([expect.objectContaining({ name: "skills.py_only", count: 1, errors: 1 })]);
  });
});
