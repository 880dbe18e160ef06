import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/wrangler-dev.mjs";
import { TEST_API_KEY } from "../helpers/keys";
import { AUTH, gatewayUrl } from "./client";

// `npm run skills -- export|import` against the running stack: skills out to files and back in.
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "skills-cli-"));

const cli = (...args: string[]) =>
  run(
    process.execPath,
    [join(root, "scripts/skills.mjs"), "--url", gatewayUrl(), "--key", TEST_API_KEY, ...args],
    {
      cwd: root,
    },
  );

const suffix = crypto.randomUUID().slice(0, 8);
const SKILLS = {
  [`cli_plain_${suffix}`]: { description: "Adds one", code: "return args.n + 1;\n" },
  [`cli_typed_${suffix}`]: {
    description: 'Greets: "hi" — with `ticks` and a\nnewline',
    code: "// a fence inside: ```\nconst who: string = args.who;\nreturn `hi ` + who;",
    inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
    outputSchema: { type: "string" },
  },
};

function skillsApi(path: string, init: RequestInit = {}) {
  return fetch(`${gatewayUrl()}/v1/skills${path}`, { ...init, headers: { ...AUTH, ...init.headers } });
}

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const name of Object.keys(SKILLS)) await skillsApi(`/${name}`, { method: "DELETE" });
});

const put = (name: string, body: unknown) =>
  skillsApi(`/${name}`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("npm run skills", () => {
  it("exports skills to files and imports them back", async () => {
    for (const [name, body] of Object.entries(SKILLS)) expect((await put(name, body)).status).toBe(201);

    const exported = await cli("export", dir);
    for (const name of Object.keys(SKILLS)) expect(exported.stdout).toContain(`exported ${name} v1`);
    for (const [name, skill] of Object.entries(SKILLS)) {
      const md = readFileSync(join(dir, name, "SKILL.md"), "utf8");
      expect(md).toMatch(
        new RegExp(`^---\\nname: "${name}"\\ndescription: ${literal(JSON.stringify(skill.description))}\\n`),
      );
      expect(readFileSync(join(dir, name, "skill.ts"), "utf8")).toBe(skill.code);
      for (const [field, file] of [
        ["inputSchema", "input-schema.json"],
        ["outputSchema", "output-schema.json"],
      ] as const) {
        const schemaFile = join(dir, name, file);
        if (field in skill)
          expect(JSON.parse(readFileSync(schemaFile, "utf8"))).toEqual(skill[field as keyof typeof skill]);
        else expect(existsSync(schemaFile)).toBe(false);
      }
    }

    for (const name of Object.keys(SKILLS))
      expect((await skillsApi(`/${name}`, { method: "DELETE" })).status).toBe(204);
    // other tests' skills of the same team were exported too; only these two go back
    for (const other of readdirSync(dir))
      if (!(other in SKILLS)) rmSync(join(dir, other), { recursive: true });
    const imported = await cli("import", dir);
    for (const name of Object.keys(SKILLS))
      expect(imported.stdout).toMatch(new RegExp(`^saved ${name} v\\d+$`, "m"));

    for (const [name, skill] of Object.entries(SKILLS)) {
      const res = await skillsApi(`/${name}`);
      expect(res.status).toBe(200);
      const record = (await res.json()) as Record<string, unknown>;
      expect(record).toMatchObject({ name, description: skill.description, code: skill.code });
      expect(record.inputSchema).toEqual("inputSchema" in skill ? skill.inputSchema : undefined);
      expect(record.outputSchema).toEqual("outputSchema" in skill ? skill.outputSchema : undefined);
    }
  });

  it("imports from SKILL.md alone, and exits non-zero with the server's message", async () => {
    const name = `cli_md_${suffix}`;
    const only = mkdtempSync(join(tmpdir(), "skills-cli-md-"));
    try {
      const md = `---\nname: ${name}\ndescription: 'It''s plain'\n---\n\n# ${name}\n\n\`\`\`ts\nreturn 42;\n\`\`\`\n`;
      mkdirSync(join(only, name));
      writeFileSync(join(only, name, "SKILL.md"), md);
      expect((await cli("import", only)).stdout.trim()).toBe(`saved ${name} v1`);
      expect(await (await skillsApi(`/${name}`)).json()).toMatchObject({
        description: "It's plain",
        code: "return 42;",
      });

      writeFileSync(join(only, name, "SKILL.md"), md.replace("return 42;", "return (;"));
      const failed = await cli("import", only).then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toMatch(
        /HTTP 400 invalid_skill: skill cli_md_\w+: SyntaxError at line 1, column \d+/,
      );
    } finally {
      rmSync(only, { recursive: true, force: true });
      await skillsApi(`/${name}`, { method: "DELETE" });
    }
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
