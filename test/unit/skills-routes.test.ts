// The skills HTTP routes (/v1/skills) and the SKILL.md rendering; the store itself is in
// skills-store.test.ts.
import { describe, expect, it } from "vitest";
import type { SkillRecord } from "../../shared/contract/skills";
import { renderSkillMd } from "../../workers/gateway/skills/skill-md";
import { AUTH, request } from "../helpers/app";

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("/v1/skills", () => {
  const name = `rest_${crypto.randomUUID().slice(0, 8)}`;
  const put = (body: unknown, path = `/v1/skills/${name}`) =>
    request(path, {
      method: "PUT",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });

  it("saves, lists, gets (JSON and SKILL.md) and deletes", async () => {
    const inputSchema = { type: "object", properties: { n: { type: "number" } } };
    const code = "// returns ```n```\nreturn args.n * 2;\n";
    const res = await put({ description: 'Doubles "n"', code, inputSchema });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ name, version: 1 });
    expect((await put({ description: "Doubles n", code })).status).toBe(201);

    const list = (await (await request("/v1/skills", { headers: AUTH })).json()) as { skills: unknown[] };
    expect(list.skills).toContainEqual({
      name,
      description: "Doubles n",
      language: "typescript",
      version: 2,
      updatedAt: expect.stringMatching(ISO_TIME),
    });

    const v1 = await request(`/v1/skills/${name}?version=1`, { headers: AUTH });
    const record = (await v1.json()) as SkillRecord;
    expect(record).toMatchObject({
      name,
      version: 1,
      description: 'Doubles "n"',
      code,
      language: "typescript",
      inputSchema,
    });

    const md = await request(`/v1/skills/${name}?version=1`, {
      headers: { ...AUTH, Accept: "text/markdown" },
    });
    expect(md.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    const text = await md.text();
    expect(text).toBe(renderSkillMd(record));
    expect(text).toMatch(
      new RegExp(
        `^---\\nname: "${name}"\\ndescription: "Doubles \\\\"n\\\\""\\nlanguage: typescript\\nversion: 1\\n---\\n`,
      ),
    );
    expect(text).toContain(`\`\`\`\`ts\n${code}\n\`\`\`\`\n`);
    expect(text).toContain(`\`\`\`json\n${JSON.stringify(inputSchema, null, 2)}\n\`\`\``);

    expect((await request(`/v1/skills/${name}`, { method: "DELETE", headers: AUTH })).status).toBe(204);
    expect((await request(`/v1/skills/${name}`, { method: "DELETE", headers: AUTH })).status).toBe(404);
    const gone = await request(`/v1/skills/${name}`, { headers: AUTH });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: { code: "skill_not_found" } });
  });

  it("takes an outputSchema and gives it back", async () => {
    const outputSchema = { type: "object", properties: { doubled: { type: "number" } } };
    const typed = `${name}_out`;
    const res = await put(
      { description: "Doubles", code: "return { doubled: 2 };", outputSchema },
      `/v1/skills/${typed}`,
    );
    expect(res.status).toBe(201);
    const record = (await (await request(`/v1/skills/${typed}`, { headers: AUTH })).json()) as SkillRecord;
    expect(record.outputSchema).toEqual(outputSchema);
    expect((await request(`/v1/skills/${typed}`, { method: "DELETE", headers: AUTH })).status).toBe(204);
  });

  it("takes a language: a Python skill is saved as Python and shown so by GET, the list and SKILL.md", async () => {
    const py = `${name}_py`;
    const code = 'rows = await tools.demo.list_tickets(status="open")\nreturn len(rows["tickets"])';
    expect(
      (await put({ description: "Counts open", code, language: "python" }, `/v1/skills/${py}`)).status,
    ).toBe(201);
    const record = (await (await request(`/v1/skills/${py}`, { headers: AUTH })).json()) as SkillRecord;
    expect(record).toMatchObject({ code, language: "python" });
    const list = (await (await request("/v1/skills", { headers: AUTH })).json()) as { skills: unknown[] };
    expect(list.skills).toContainEqual(expect.objectContaining({ name: py, language: "python" }));
    const md = await request(`/v1/skills/${py}`, { headers: { ...AUTH, Accept: "text/markdown" } });
    expect(await md.text()).toContain(`language: python\n`);
    expect((await put({ description: "x", code: "return 1", language: "ruby" })).status).toBe(400);
    expect((await request(`/v1/skills/${py}`, { method: "DELETE", headers: AUTH })).status).toBe(204);
  });

  it("answers 400 naming the problem, with line and column for a syntax error", async () => {
    const bad = await put({ description: "x", code: "return (;" });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_skill");
    expect(body.error.message).toMatch(/SyntaxError at line 1, column \d+/);
    const reserved = await put({ description: "x", code: "return 1" }, "/v1/skills/list");
    expect(reserved.status).toBe(400);
    expect((await put({ code: "return 1" })).status).toBe(400);
    expect((await put([1])).status).toBe(400);
    expect((await put({ name: "other", description: "x", code: "return 1" })).status).toBe(400);
    const python = await put({ description: "x", code: "def f():\n    return 1\nreturn f()" });
    expect(python.status).toBe(400);
    expect(((await python.json()) as { error: { message: string } }).error.message).toMatch(
      /the code is Python \(line 1\), not typescript; save it with language "python"/,
    );
    expect((await request(`/v1/skills/${name}?version=x`, { headers: AUTH })).status).toBe(400);
    expect((await request("/v1/skills/nothing_here", { headers: AUTH })).status).toBe(404);
    expect((await request("/v1/skills", {})).status).toBe(401);
  });
});

describe("renderSkillMd", () => {
  it("writes YAML-safe front matter and a fence longer than any backtick run in the code", () => {
    const text = renderSkillMd({
      name: "x",
      version: 7,
      description: "line\nbreak: \u2028 and `q`",
      code: "const s = 'a ``` b';\nreturn s;",
      language: "typescript",
      updatedAt: "1970-01-01T00:00:00.000Z",
    });
    expect(text.split("\n").slice(0, 6)).toEqual([
      "---",
      'name: "x"',
      'description: "line\\nbreak: \\u2028 and `q`"',
      "language: typescript",
      "version: 7",
      "---",
    ]);
    expect(text).toContain("\n````ts\nconst s = 'a ``` b';\nreturn s;\n````\n");
    expect(text).not.toContain("## Input schema");
  });
});
