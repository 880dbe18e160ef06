import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { GatewayEnv } from "../../workers/gateway/env";
import { execute } from "../../workers/gateway/operations";
import { skillsForExecution } from "../../workers/gateway/skills/resolve";
import { skillNamesIn } from "../../workers/gateway/skills/scan";
import { SkillStore } from "../../workers/gateway/skills/store";
import { testScope } from "../helpers/scope";

// Running skills inside the caller's isolate (store: skills-store.test.ts). Each test uses its own
// team, so the skills of one test are not visible to another.
let teams = 0;
async function withSkills(
  skills: Array<{ name: string; code: string; inputSchema?: Record<string, unknown> }>,
) {
  const team = `run-${++teams}-${Date.now()}`;
  const base = testScope();
  const scope = { ...base, team };
  const store = new SkillStore(env as unknown as GatewayEnv, team, base.config.skills);
  for (const s of skills) await store.save({ description: `skill ${s.name}`, ...s });
  return { scope, store };
}

describe("finding the skills code names", () => {
  it("reads skills.x, skills?.x and skills['x'], not the management methods", () => {
    expect(
      skillNamesIn(
        "await skills.a({}); skills?.b_2(); skills['c']; skills[\"d\"]; skills.save({}); skills.list()",
      ),
    ).toEqual(["a", "b_2", "c", "d"]);
  });

  it("follows skills that call skills, once each, and reports the missing", async () => {
    const { scope } = await withSkills([
      { name: "outer", code: "return await skills.inner({}) + await skills.ghost({});" },
      { name: "inner", code: "return 1;" },
    ]);
    const found = await skillsForExecution(scope, "return skills.outer({})");
    expect(found.loaded.map((s) => s.name).sort()).toEqual(["inner", "outer"]);
    expect(found.missing).toEqual(["ghost"]);
  });
});

describe("skills.<name>(args) in code", () => {
  it("runs the skill with a copy of its arguments and returns its value", async () => {
    const { scope } = await withSkills([{ name: "add", code: "args.a += 100; return args.a + args.b;" }]);
    const r = await execute(scope, {
      code: "const input = { a: 1, b: 2 }; const sum = await skills.add(input); return [sum, input.a];",
    });
    expect(r.result).toEqual([103, 1]);
    expect(r.stats.calls).toEqual([expect.objectContaining({ name: "skills.add", ok: true })]);
  });

  it("counts the skill call and the skill's own tool calls against the execution's cap", async () => {
    const { scope } = await withSkills([
      {
        name: "calls",
        code: "const out = []; for (let i = 0; i < 3; i++) { try { await tools.none.x({}); } catch (e) { out.push(e.name); } } return out;",
      },
    ]);
    const limits = { ...scope.config.limits, maxToolCalls: 3 };
    const r = await execute(
      { ...scope, config: { ...scope.config, limits } },
      { code: "return await skills.calls({});" },
    );
    expect(r.result).toEqual(["UnknownToolError", "UnknownToolError", "LimitError"]);
  });

  it("reaches skills through callTool('skills.<name>') too", async () => {
    const { scope } = await withSkills([{ name: "twice", code: "return args.n * 2;" }]);
    expect((await execute(scope, { code: "return await callTool('skills.twice', { n: 21 });" })).result).toBe(
      42,
    );
  });

  it("refuses a name it did not see in the code, and direct recursion", async () => {
    const { scope } = await withSkills([
      { name: "hidden", code: "return 1;" },
      { name: "loop", code: "return await skills.loop(args);" },
    ]);
    const hidden = await execute(scope, { code: "const n = 'hid' + 'den'; return await skills[n]({});" });
    expect(hidden.error).toMatchObject({ name: "SkillNotLoadedError" });
    const loop = await execute(scope, { code: "return await skills.loop({});" });
    expect(loop.error).toMatchObject({
      name: "RecursionError",
      message: expect.stringContaining("loop → loop"),
    });
  });

  it("sees a new version in the next execution", async () => {
    const { scope, store } = await withSkills([{ name: "ver", code: "return 1;" }]);
    expect((await execute(scope, { code: "return await skills.ver()" })).result).toBe(1);
    await store.save({ name: "ver", description: "v2", code: "return 2;" });
    expect((await execute(scope, { code: "return await skills.ver()" })).result).toBe(2);
  });

  it("runs skills from Python too, with kwargs or a dict", { timeout: 60_000 }, async () => {
    const { scope } = await withSkills([{ name: "mul", code: "return args.a * args.b;" }]);
    const r = await execute(scope, {
      language: "python",
      code: "[await skills.mul(a=6, b=7), await skills.mul({'a': 2, 'b': 3})]",
    });
    expect(r.error).toBeUndefined();
    expect(r.result).toEqual([42, 6]);
  });

  it("applies the team's deny list to skills.*", async () => {
    const { scope } = await withSkills([{ name: "secret", code: "return 1;" }]);
    await env.TEAMS.put(
      `team:v1:${scope.team}`,
      JSON.stringify({ name: scope.team, deny: ["skills.secret"], createdAt: 1, updatedAt: 1 }),
    );
    const r = await execute(scope, { code: "return await skills.secret({});" });
    expect(r.error).toMatchObject({ name: "UnknownSkillError" });
  });
});
