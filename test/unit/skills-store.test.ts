import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { callSignature, toolDeclaration } from "../../workers/gateway/discovery/typescript";
import type { GatewayEnv } from "../../workers/gateway/env";
import { skillTool } from "../../workers/gateway/skills/catalog";
import { SkillError } from "../../workers/gateway/skills/errors";
import type { StoredSkill } from "../../workers/gateway/skills/objects";
import { renderSkillMd } from "../../workers/gateway/skills/skill-md";
import { type SkillLimits, SkillStore } from "../../workers/gateway/skills/store";

const gatewayEnv = env as unknown as GatewayEnv;
const LIMITS: SkillLimits = { maxCodeChars: 1_000, maxSkills: 500 };
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let teams = 0;
/** A store of a team no other test uses; `reads` lists the R2 keys it read. */
function storeOf(limits: SkillLimits = LIMITS, team = `t${++teams}-${crypto.randomUUID().slice(0, 8)}`) {
  const reads: string[] = [];
  const store = new SkillStore(gatewayEnv, team, limits, { onR2Read: (key) => reads.push(key) });
  return { store, team, reads };
}

const skill = (name: string, over: Record<string, unknown> = {}) => ({
  name,
  description: `what ${name} does`,
  code: "return args.a + 1;",
  ...over,
});

async function refused(promise: Promise<unknown>): Promise<SkillError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof SkillError)) throw new Error(`expected a SkillError, got ${String(err)}`);
  return err;
}

const r2Keys = async (team: string) =>
  (await gatewayEnv.SKILLS.list({ prefix: `skills/v1/${team}/` })).objects.map((o) => o.key).sort();

const indexRows = (team: string) =>
  runInDurableObject(
    gatewayEnv.SKILL_INDEX.get(gatewayEnv.SKILL_INDEX.idFromName(team)),
    (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM versions").one().n,
  );

describe("SkillStore: versions", () => {
  it("numbers saves 1, 2, 3 and gets any of them", async () => {
    const { store } = storeOf();
    for (const n of [1, 2, 3]) {
      expect(await store.save(skill("add", { code: `return ${n};` }))).toEqual({ name: "add", version: n });
    }
    expect(await store.get("add")).toMatchObject({
      version: 3,
      code: "return 3;",
      description: "what add does",
    });
    expect(await store.get("add", 2)).toMatchObject({ version: 2, code: "return 2;" });
    expect(await store.get("add", 4)).toBeNull();
    expect(await store.get("nope")).toBeNull();
    const [listed] = await store.list();
    expect(listed).toEqual({
      name: "add",
      version: 3,
      description: "what add does",
      language: "typescript",
      updatedAt: expect.stringMatching(ISO_TIME),
    });
  });

  it("keeps every one of 24 concurrent saves of one skill, numbered 1..24", async () => {
    const { store, team } = storeOf();
    const saved = await Promise.all(
      Array.from({ length: 24 }, (_, i) => store.save(skill("busy", { code: `return ${i};` }))),
    );
    const versions = saved.map((s) => s.version).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const keys = await r2Keys(team);
    expect(keys).toHaveLength(24);
    expect(new Set(keys)).toEqual(new Set(versions.map((v) => `skills/v1/${team}/busy/${v}.json`)));
    const codes = await Promise.all(versions.map(async (v) => (await store.get("busy", v))?.code));
    expect(new Set(codes).size).toBe(24);
    expect(await store.get("busy")).toMatchObject({ version: 24 });
  });

  it("stores the whole record in R2 and the inputSchema in the index", async () => {
    const { store, team } = storeOf();
    const inputSchema = { type: "object", properties: { a: { type: "number" } }, required: ["a"] };
    await store.save(skill("typed", { inputSchema }));
    const object = await gatewayEnv.SKILLS.get(`skills/v1/${team}/typed/1.json`);
    const stored = (await object?.json()) as StoredSkill;
    expect(stored).toEqual({
      ...skill("typed", { inputSchema }),
      language: "typescript",
      version: 1,
      updatedAt: expect.any(Number),
    });
    expect((await store.list())[0]?.inputSchema).toEqual(inputSchema);
    expect(await store.get("typed")).toEqual({
      ...stored,
      updatedAt: new Date(stored.updatedAt).toISOString(),
    });
  });
});

describe("SkillStore: what a save refuses", () => {
  const { store } = storeOf();
  const cases: Array<[string, unknown, SkillError["name"], RegExp]> = [
    ["a bad name", skill("Bad-Name"), "ValidationError", /name.*\^\[a-z\]/s],
    ["a reserved name", skill("constructor"), "ValidationError", /may not be named/],
    ["no description", { name: "x", code: "return 1" }, "ValidationError", /description/],
    ["a blank description", skill("x", { description: "  " }), "ValidationError", /description is required/],
    [
      "a description of 1,025 chars",
      skill("x", { description: "d".repeat(1025) }),
      "ValidationError",
      /description/,
    ],
    [
      "code over the cap",
      skill("x", { code: `return "${"x".repeat(1000)}";` }),
      "LimitError",
      /SKILL_MAX_CODE_CHARS/,
    ],
    [
      "an inputSchema that is not an object",
      skill("x", { inputSchema: [1] }),
      "ValidationError",
      /inputSchema/,
    ],
    [
      "an inputSchema of type string",
      skill("x", { inputSchema: { type: "string" } }),
      "ValidationError",
      /inputSchema\.type: must be "object"/,
    ],
    [
      "bad required",
      skill("x", { inputSchema: { required: "a" } }),
      "ValidationError",
      /inputSchema\.required: must be an array of strings/,
    ],
    [
      "bad required items",
      skill("x", { inputSchema: { required: [1] } }),
      "ValidationError",
      /inputSchema\.required/,
    ],
    [
      "properties not objects",
      skill("x", { inputSchema: { properties: { a: 1 } } }),
      "ValidationError",
      /inputSchema\.properties\.a: must be an object/,
    ],
    ["an unknown field", { ...skill("x"), extra: 1 }, "ValidationError", /extra/],
    [
      "an outputSchema that is not an object",
      skill("x", { outputSchema: "string" }),
      "ValidationError",
      /outputSchema/,
    ],
    [
      "an outputSchema with an unknown type",
      skill("x", { outputSchema: { type: "text" } }),
      "ValidationError",
      /outputSchema\.type: must be a JSON Schema type name/,
    ],
    [
      "an outputSchema holding non-JSON values",
      skill("x", { outputSchema: { type: "number", maximum: Number.POSITIVE_INFINITY } }),
      "ValidationError",
      /outputSchema\.maximum: Infinity is not a JSON number/,
    ],
    ["another language", skill("x", { language: "ruby" }), "ValidationError", /language/],
  ];
  it.each(cases)("refuses %s", async (_what, input, name, message) => {
    const err = await refused(store.save(input));
    expect(err.name).toBe(name);
    expect(err.message).toMatch(message);
  });

  it("refuses an inputSchema nested deeper than 64 levels, or holding non-JSON values", async () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 70; i++) {
      const next = {};
      deep.a = next;
      deep = next;
    }
    expect((await refused(store.save(skill("x", { inputSchema: root })))).message).toMatch(
      /nested more than 64/,
    );
    const nan = { type: "object", default: Number.NaN };
    expect((await refused(store.save(skill("x", { inputSchema: nan })))).message).toMatch(
      /not a JSON number/,
    );
  });

  it("refuses a TypeScript syntax error with its line and column", async () => {
    const err = await refused(store.save(skill("broken", { code: "const a: number = 1;\nreturn a +;" })));
    expect(err).toMatchObject({ name: "SyntaxError", line: 2, column: expect.any(Number) });
    expect(err.message).toMatch(/^skill broken: SyntaxError at line 2, column \d+: /);
  });

  it("refuses Python code saved as TypeScript saying to save it as Python, with the Python line; valid code is never taken for Python", async () => {
    const python = [
      'import json\nrows = await tools.demo.list_tickets(status="open")\nreturn len(rows["tickets"])',
      "from collections import Counter\nreturn Counter([1])",
      "# count open tickets\npage = await tools.demo.list_tickets(limit=args['n'])\nreturn page",
      "def top(rows):\n    return rows[:3]\nreturn top(args['rows'])",
      "total = 0\nfor t in args['tickets']:\n    total += 1\nreturn total",
      "print(args['n'])\nreturn args['n'] if args else None",
    ];
    for (const code of python) {
      const err = await refused(store.save(skill("py", { code })));
      expect(err.name, code).toBe("SyntaxError");
      expect(err.message, code).toMatch(
        /^skill py: the code is Python \(line \d\), not typescript; save it with language "python"/,
      );
      expect(err.message.length).toBeLessThanOrEqual(300);
    }
    const err = await refused(store.save(skill("py", { code: "x = 1\n\nimport os" })));
    expect(err).toMatchObject({ line: 3 });
    // a TypeScript syntax error with nothing Pythonic keeps its own message
    const ts = await refused(store.save(skill("ts", { code: "// import x\nprint(args);\nreturn a +;" })));
    expect(ts.message).toMatch(/^skill ts: SyntaxError at line 3/);
    // valid TypeScript that has a Python-looking line is saved as it is
    const { store: other } = storeOf();
    await other.save(
      skill("valid", { code: "class A {\n  #n = 1;\n  get n() { return this.#n; }\n}\nreturn new A().n;" }),
    );
  });

  it("saves nothing that was refused", async () => {
    expect(await store.list()).toEqual([]);
  });
});

describe("SkillStore: outputSchema", () => {
  it("stores it in R2 and the index, returns it from get, and types the discovery signature with it", async () => {
    const { store, team } = storeOf();
    const outputSchema = {
      type: "array",
      items: {
        type: "object",
        properties: { id: { type: "string" }, open: { type: "integer" } },
        required: ["id", "open"],
      },
    };
    const inputSchema = { type: "object", properties: { top: { type: "integer" } }, required: ["top"] };
    await store.save(skill("ranked", { code: "return [];", inputSchema, outputSchema }));
    const object = await gatewayEnv.SKILLS.get(`skills/v1/${team}/ranked/1.json`);
    const stored = (await object?.json()) as StoredSkill | undefined;
    expect(stored?.outputSchema).toEqual(outputSchema);
    expect(await store.get("ranked")).toMatchObject({ inputSchema, outputSchema });
    const [listed] = await store.list();
    expect(listed?.outputSchema).toEqual(outputSchema);
    const tool = skillTool(listed!);
    expect(callSignature(tool)).toBe(
      "skills.ranked(args: { top: number }): Promise<{ id: string; open: number }[]>",
    );
    expect(toolDeclaration(tool)).toContain("typed below by its\n");
    expect(renderSkillMd((await store.get("ranked"))!)).toContain(
      `## Output schema\n\n\`\`\`json\n${JSON.stringify(outputSchema, null, 2)}\n\`\`\``,
    );
    await store.save(skill("ranked", { code: "return [];" }));
    expect(callSignature(skillTool((await store.list())[0]!))).toBe(
      "skills.ranked(args?: { [key: string]: unknown }): Promise<unknown>",
    );
  });
});

describe("SkillStore: limits, delete, teams", () => {
  it("caps the number of skills per team, counting names not versions", async () => {
    const { store } = storeOf({ ...LIMITS, maxSkills: 2 });
    await store.save(skill("one"));
    await store.save(skill("two"));
    const err = await refused(store.save(skill("three")));
    expect(err).toMatchObject({
      name: "LimitError",
      message: expect.stringMatching(/SKILL_MAX_PER_TEAM \(2\)/),
    });
    expect(await store.save(skill("one"))).toEqual({ name: "one", version: 2 });
    await store.delete("two");
    expect(await store.save(skill("three"))).toEqual({ name: "three", version: 1 });
  });

  it("deletes every version from the index and R2, and never reuses a number", async () => {
    const { store, team } = storeOf();
    await store.save(skill("gone"));
    await store.save(skill("gone"));
    await store.save(skill("kept"));
    expect(await store.delete("gone")).toBe(true);
    expect(await store.delete("gone")).toBe(false);
    expect(await store.get("gone")).toBeNull();
    expect(await store.get("gone", 1)).toBeNull();
    expect(await indexRows(team)).toBe(1);
    expect(await r2Keys(team)).toEqual([`skills/v1/${team}/kept/1.json`]);
    expect(await store.save(skill("gone"))).toEqual({ name: "gone", version: 3 });
  });

  it("leaves neither a version nor a gap when the R2 write fails", async () => {
    const { store, team } = storeOf();
    const down = { ...gatewayEnv, SKILLS: { put: () => Promise.reject(new Error("R2 is down")) } };
    const failing = new SkillStore(down as unknown as GatewayEnv, team, LIMITS);
    await expect(failing.save(skill("flaky"))).rejects.toThrow("R2 is down");
    expect(await store.list()).toEqual([]);
    expect(await indexRows(team)).toBe(0);
    expect(await store.save(skill("flaky"))).toEqual({ name: "flaky", version: 1 });
  });

  it("forgets a reservation whose save died before commit", async () => {
    const { store, team } = storeOf({ ...LIMITS, maxSkills: 1 });
    await runInDurableObject(
      gatewayEnv.SKILL_INDEX.get(gatewayEnv.SKILL_INDEX.idFromName(team)),
      (_i, state) => {
        state.storage.sql.exec(
          "INSERT INTO versions (name, version, description, input_schema, code_chars, updated_at, ready, reserved_at) VALUES ('ghost', 1, 'd', NULL, 1, 0, 0, 0)",
        );
      },
    );
    expect(await store.list()).toEqual([]);
    expect(await store.save(skill("real"))).toEqual({ name: "real", version: 1 });
    expect(await indexRows(team)).toBe(1);
  });

  it("keeps teams apart", async () => {
    const a = storeOf().store;
    const { store: b, team: teamB } = storeOf();
    await b.save(skill("shared", { code: "return 'b';" }));
    expect(await a.list()).toEqual([]);
    expect(await a.get("shared")).toBeNull();
    expect(await a.get("shared", 1)).toBeNull();
    expect((await a.load(["shared"])).size).toBe(0);
    expect(await a.delete("shared")).toBe(false);
    expect(await b.get("shared")).toMatchObject({ code: "return 'b';" });
    expect(await r2Keys(teamB)).toHaveLength(1);
  });
});

describe("SkillStore.load", () => {
  it("reads R2 once per version, and sees a new version on the next call", async () => {
    const { store, team, reads } = storeOf();
    await store.save(skill("first", { code: "return 1;" }));
    await store.save(skill("second", { code: "return 2;" }));
    const loaded = await store.load(["first", "second", "first", "missing", "Not A Name"]);
    expect([...loaded.keys()].sort()).toEqual(["first", "second"]);
    expect(loaded.get("first")).toMatchObject({ version: 1, code: "return 1;" });
    expect(reads).toHaveLength(2);
    await store.load(["first", "second"]);
    expect(reads).toHaveLength(2);
    await store.save(skill("first", { code: "return 11;" }));
    expect((await store.load(["first", "second"])).get("first")).toMatchObject({
      version: 2,
      code: "return 11;",
    });
    expect(reads).toEqual([
      expect.stringMatching(/\/(first|second)\/1\.json$/),
      expect.stringMatching(/\/(first|second)\/1\.json$/),
      `skills/v1/${team}/first/2.json`,
    ]);
    expect(await store.load([])).toEqual(new Map());
  });
});
