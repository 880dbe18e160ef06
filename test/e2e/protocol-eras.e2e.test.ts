import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ExecuteResult } from "../../shared/contract/execute";
import { ERAS, type EraClient, eraClient, postModern } from "./eras";

// One /mcp for every client (contract "Protocol 2026-07-28 and OAuth"): the SDK's v2 client pinned
// to 2026-07-28, in auto mode (which must pick 2026-07-28), in its default legacy mode, and the v1
// client, each doing what an agent does: execute with tool calls, a session's state and workspace,
// and the team's skills through the skills extension.

const clients: EraClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

const Listed = z.object({
  resources: z.array(z.object({ uri: z.string() }).loose()),
  ttlMs: z.number().optional(),
  cacheScope: z.string().optional(),
});
const Read = z.object({
  contents: z.array(z.object({ uri: z.string(), text: z.string().optional() }).loose()),
});
const SkillEntry = z
  .object({ uri: z.string(), frontmatter: z.object({ name: z.string(), description: z.string() }).loose() })
  .loose();
const SkillsList = z.object({ skills: z.array(SkillEntry) }).loose();
const SkillsGet = z.object({ skill: SkillEntry }).loose();
const ToolsList = z
  .object({ tools: z.array(z.object({ name: z.string() }).loose()), ttlMs: z.number().optional() })
  .loose();

async function run(client: EraClient, args: Record<string, unknown>): Promise<ExecuteResult> {
  const res = await client.callTool("execute", args);
  const result = res.structuredContent as ExecuteResult;
  expect(res.isError ?? false, JSON.stringify(result?.error)).toBe(false);
  return result;
}

describe.each(ERAS)("$era", ({ era, expects }) => {
  it(`speaks ${expects}, executes with tool calls, keeps a session's state and files, serves skills`, async () => {
    const client = await eraClient(era);
    clients.push(client);
    const tag = `${era.replaceAll(/\W/g, "")}${Date.now()}`;

    // The handshake on the wire: server/discover and no initialize on 2026-07-28; initialize before.
    const { methods, versions } = client.wire;
    if (expects === "2026-07-28") {
      expect(methods).toContain("server/discover");
      expect(methods).not.toContain("initialize");
    } else {
      expect(methods[0]).toBe("initialize");
      expect(methods).not.toContain("server/discover");
    }

    const listed = ToolsList.parse(await client.request("tools/list", {}, z.unknown()));
    expect(listed.tools.map((t) => t.name).sort()).toEqual([
      "execute",
      "get_tool_definition",
      "search_tools",
    ]);
    if (expects === "2026-07-28") expect(listed.ttlMs).toBeGreaterThan(0);

    const first = await run(client, {
      code: `await state.set("n", 41);
await workspace.write("eras/${tag}.txt", "written by ${tag}");
const { tickets } = await tools.demo.list_tickets({ status: "open", limit: 3 });
return tickets.length;`,
    });
    expect(first.result).toBe(3);
    expect(first.stats.toolCalls).toBe(1);
    expect(first.sessionId).toEqual(expect.any(String));
    const sessionId = first.sessionId as string;
    const second = await run(client, { code: `return (await state.get("n")) + 1;`, sessionId });
    expect(second.result).toBe(42);

    // Workspace files as resources: the MCP session's (2025), the session `_meta` names (2026).
    const meta = expects === "2026-07-28" ? { _meta: { sessionId } } : {};
    const resources = Listed.parse(await client.request("resources/list", meta, z.unknown()));
    const uri = `workspace://eras/${tag}.txt`;
    expect(resources.resources.map((r) => r.uri)).toContain(uri);
    if (expects === "2026-07-28") expect(resources.cacheScope).toBe("private");
    const read = Read.parse(await client.request("resources/read", { uri, ...meta }, z.unknown()));
    expect(read.contents[0]?.text).toBe(`written by ${tag}`);

    // Skills through the extension (io.modelcontextprotocol/skills), same SKILL.md as skill://.
    const name = `era_${tag.toLowerCase()}`;
    await run(client, {
      code: `return await skills.save({ name: "${name}", description: "Doubles n (${era})", code: "return args.n * 2" });`,
    });
    const extName = name.replaceAll("_", "-");
    const skills = SkillsList.parse(await client.request("skills/list", {}, z.unknown()));
    const entry = skills.skills.find((s) => s.frontmatter.name === extName);
    expect(entry?.uri).toBe(`skill://${extName}/SKILL.md`);
    expect(entry?.frontmatter.description).toBe(`Doubles n (${era})`);
    const got = SkillsGet.parse(await client.request("skills/get", { uri: entry?.uri }, z.unknown()));
    expect(got.skill.uri).toBe(entry?.uri);
    const md = Read.parse(await client.request("resources/read", { uri: entry?.uri }, z.unknown()));
    expect(md.contents[0]?.text).toContain(`skills.${name}(args)`);
    expect((await run(client, { code: `return await skills.${name}({ n: 21 });` })).result).toBe(42);

    expect([...versions].every((v) => v === expects)).toBe(true);
  });
});

describe("MCP 2026-07-28 specifics", () => {
  it("refuses a request whose Mcp-Method header disagrees with its body", async () => {
    const res = await postModern("tools/list", {}, { headers: { "Mcp-Method": "tools/call" } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error?: { message: string } };
    expect(body.error?.message).toMatch(/Mcp-Method/i);
  });
});
