import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { GatewayEnv } from "../../workers/gateway/env";
import { skillsForExecution } from "../../workers/gateway/skills/resolve";
import { skillNamesIn } from "../../workers/gateway/skills/scan";
import { SkillStore } from "../../workers/gateway/skills/store";
import { testContext } from "../helpers/context";
import { execute } from "../helpers/execute";

// Running skills inside the caller's isolate (store: skills-store.test.ts). Each test uses its own
// team, so the skills of one test are not visible to another.
let teams = 0;
async function withSkills(
  skills: Array<{ name: string; code: string; inputSchema?: Record<string, unknown> }>,
) {
  const team = `run-${++teams}-${Date.now()}`;
  const base = testContext();
  const ctx = { ...base, team };
  const store = new SkillStore(env as unknown as GatewayEnv, team, base.config.skills);
  for (const s of skills) await store.save({ description: `skill ${s.name}`, ...s });
  return { ctx, store };
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
    const { ctx } = await withSkills([
      { name: "outer", code: "return await skills.inner({}) + await skills.ghost({});" },
      { name: "inner", code: "return 1;" },
    ]);
    const found = await skillsForExecution(ctx, "return skills.outer({})");
    expect(found.loaded.map((s) => s.name).sort()).toEqual(["inner", "outer"]);
    expect(found.missing).toEqual(["ghost"]);
  });
});

describe("skills.<name>(args) in code", () => {
  it("runs the skill with a copy of its arguments and returns its value", async () => {
    const { ctx } = await withSkills([{ name: "add", code: "args.a += 100; return args.a + args.b;" }]);
    const r = await execute(ctx, {
      code: "const input = { a: 1, b: 2 }; const sum = await skills.add(input); return [sum, input.a];",
    });
    expect(r.result).toEqual([103, 1]);
    expect(r.stats.calls).toEqual([expect.objectContaining({ name: "skills.add", count: 1, errors: 0 })]);
  });

  it("counts the skill call and the skill's own tool calls against the execution's cap", async () => {
    const { ctx } = await withSkills([
      {
        name: "calls",
        code: "const out = []; for (let i = 0; i < 3; i++) { try { await tools.none.x({}); } catch (e) { out.push(e.name); } } return out;",
      },
    ]);
    const limits = { ...ctx.config.limits, maxToolCalls: 3 };
    const r = await execute(
      { ...ctx, config: { ...ctx.config, limits } },
      { code: "return await skills.calls({});" },
    );
    expect(r.result).toEqual(["UnknownToolError", "UnknownToolError", "LimitError"]);
  });

  it("reaches skills through callTool('skills.<name>') too", async () => {
    const { ctx } = await withSkills([{ name: "twice", code: "return args.n * 2;" }]);
    expect((await execute(ctx, { code: "return await callTool('skills.twice', { n: 21 });" })).result).toBe(
      42,
    );
  });

  it("refuses a name it did not see in the code, and direct recursion", async () => {
    const { ctx } = await withSkills([
      { name: "hidden", code: "return 1;" },
      { name: "loop", code: "return await skills.loop(args);" },
    ]);
    const hidden = await execute(ctx, { code: "const n = 'hid' + 'den'; return await skills[n]({});" });
    expect(hidden.error).toMatchObject({ name: "SkillNotLoadedError" });
    const loop = await execute(ctx, { code: "return await skills.loop({});" });
    expect(loop.error).toMatchObject({
      name: "RecursionError",
      message: expect.stringContaining("loop → loop"),
    });
  });

  it("says which line of the code called a failing skill, and which line of the skill failed", async () => {
    const { ctx } = await withSkills([
      { name: "broken", code: "const a = 1;\nconst b = a + 1;\nthrow new RangeError('bad value ' + b);" },
      { name: "outer", code: "const x = 0;\nreturn await skills.broken({});" },
    ]);
    const direct = await execute(ctx, { code: "const x = 1;\nreturn await skills.broken({});" });
    expect(direct.error).toMatchObject({
      name: "RangeError",
      line: 2,
      message: "in skills.broken line 3: bad value 2",
    });
    expect(direct.error?.stack).toContain("skills.broken:3");
    const nested = await execute(ctx, { code: "\n\nreturn await skills.outer({});" });
    expect(nested.error).toMatchObject({ name: "RangeError", line: 3 });
    expect(nested.error?.stack).toContain("skills.outer:2");
  });

  it("sees a new version in the next execution", async () => {
    const { ctx, store } = await withSkills([{ name: "ver", code: "return 1;" }]);
    expect((await execute(ctx, { code: "return await skills.ver()" })).result).toBe(1);
    await store.save({ name: "ver", description: "v2", code: "return 2;" });
    expect((await execute(ctx, { code: "return await skills.ver()" })).result).toBe(2);
  });

  it("says a skill saved by this execution is called from the next one, and an unknown one is unknown", async () => {
    const { ctx } = await withSkills([]);
    const code = `await skills.save({ name: "fresh", description: "d", code: "return 7;" });
try { await skills.fresh({}); } catch (e) { return [e.name, e.message]; }`;
    expect((await execute(ctx, { code })).result).toEqual([
      "SkillNotLoadedError",
      "skills.fresh was saved by this execution; skills are loaded when an execution starts: call it from the next one",
    ]);
    expect((await execute(ctx, { code: "return await skills.fresh({})" })).result).toBe(7);
    expect((await execute(ctx, { code: "return await skills.ghost({})" })).error).toMatchObject({
      name: "UnknownSkillError",
      message: 'skills.ghost: this team has no skill named "ghost" (skills.list() shows them)',
    });
  });

  it("applies the team's deny list to skills.*", async () => {
    const { ctx } = await withSkills([{ name: "secret", code: "return 1;" }]);
    const teamRecord = { name: ctx.team, deny: ["skills.secret"], createdAt: 1, updatedAt: 1 };
    const r = await execute({ ...ctx, teamRecord }, { code: "return await skills.secret({});" });
    expect(r.error).toMatchObject({ name: "UnknownSkillError" });
  });
});
