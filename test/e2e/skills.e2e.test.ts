import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH, connect, execute, gatewayUrl, teamWithKey } from "./client";

// Skills as an agent uses them (contract "Skills"): saved from code in one session, found with
// search_tools and called in another, versioned, calling each other, failing clearly; SKILL.md
// resources; and another team sees none of it.
let first: { client: Client; transport: StreamableHTTPClientTransport };
let second: { client: Client; transport: StreamableHTTPClientTransport };

const OPEN_TICKETS = `const counts: Record<string, number> = {};
let cursor: string | undefined;
do {
  const page = await tools.demo.list_tickets({ status: "open", limit: 100, ...(cursor ? { cursor } : {}) });
  for (const t of page.tickets) counts[t.customerId] = (counts[t.customerId] ?? 0) + 1;
  cursor = page.nextCursor;
} while (cursor);
return Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, args.top).map(([id, open]) => ({ id, open }));`;

/** search_tools / get_tool_definition answer as JSON text content. */
const answer = (res: unknown) =>
  JSON.parse((res as { content: Array<{ text: string }> }).content[0]?.text ?? "null") as Record<
    string,
    unknown
  >;

const save = (client: Client, skill: Record<string, unknown>) =>
  execute(client, { code: `return await skills.save(${JSON.stringify(skill)});` });

beforeAll(async () => {
  first = await connect();
  second = await connect();
});
afterAll(async () => {
  for (const name of ["open_tickets_per_customer", "top_customer", "ping_a", "ping_b", "broken"]) {
    await fetch(`${gatewayUrl()}/v1/skills/${name}`, { method: "DELETE", headers: AUTH });
  }
  await first?.client.close();
  await second?.client.close();
});

describe("skills", () => {
  it("saves code from one session and calls it in one line from another", async () => {
    const saved = await save(first.client, {
      name: "open_tickets_per_customer",
      description: "Customers with the most open tickets, most first.",
      code: OPEN_TICKETS,
      inputSchema: {
        type: "object",
        properties: { top: { type: "integer", minimum: 1, maximum: 50, description: "How many customers" } },
        required: ["top"],
      },
    });
    expect(saved.result).toEqual({ name: "open_tickets_per_customer", version: 1 });
    const r = await execute(second.client, {
      code: "return await skills.open_tickets_per_customer({ top: 3 });",
    });
    expect(r.error).toBeUndefined();
    expect(r.result).toHaveLength(3);
    expect((r.result as Array<{ open: number }>)[0]!.open).toBeGreaterThanOrEqual(3);
    // the skill's tool calls count in the execution that ran it
    expect(r.stats.toolCalls).toBeGreaterThan(1);
  });

  it("is found by search_tools and described by get_tool_definition with a TypeScript signature", async () => {
    const found = await second.client.callTool({
      name: "search_tools",
      arguments: { query: "customers with most open tickets", detail: "full", limit: 20 },
    });
    const tools = answer(found).tools as Array<{ name: string; signature?: string }>;
    const skill = tools.find((t) => t.name === "skills.open_tickets_per_customer");
    expect(skill?.signature).toMatch(/^skills\.open_tickets_per_customer\(args: \{ top: number \}\)/);
    const def = await second.client.callTool({
      name: "get_tool_definition",
      arguments: { name: "skills.open_tickets_per_customer" },
    });
    expect(answer(def).typescript).toContain("declare namespace skills {");
  });

  it("validates arguments against inputSchema before the skill runs", async () => {
    const r = await execute(second.client, {
      code: "return await skills.open_tickets_per_customer({ top: 0 });",
    });
    expect(r.error).toMatchObject({ name: "ValidationError" });
    expect(r.error?.message).toMatch(/skills\.open_tickets_per_customer[\s\S]*top/);
  });

  it("keeps every version; the next execution runs the newest", async () => {
    const v2 = await save(first.client, {
      name: "top_customer",
      description: "The one customer with the most open tickets.",
      code: "const [best] = await skills.open_tickets_per_customer({ top: 1 }); return best.id;",
    });
    expect(v2.result).toEqual({ name: "top_customer", version: 1 });
    expect((await execute(second.client, { code: "return await skills.top_customer({})" })).result).toMatch(
      /^cus_/,
    );
    const v3 = await save(first.client, {
      name: "top_customer",
      description: "The one customer with the most open tickets, as an object.",
      code: "const [best] = await skills.open_tickets_per_customer({ top: 1 }); return { id: best.id, v: 2 };",
    });
    expect(v3.result).toEqual({ name: "top_customer", version: 2 });
    const r = await execute(second.client, {
      code: "return { now: await skills.top_customer(), list: await skills.list(), old: (await skills.get('top_customer', 1)).code };",
    });
    const out = r.result as {
      now: { v: number };
      list: Array<{ name: string; version: number }>;
      old: string;
    };
    expect(out.now.v).toBe(2);
    expect(out.list.find((s) => s.name === "top_customer")?.version).toBe(2);
    expect(out.old).toContain("return best.id");
  });

  it("stops a cycle between skills with a RecursionError naming the chain", async () => {
    await save(first.client, {
      name: "ping_a",
      description: "calls b",
      code: "return await skills.ping_b({});",
    });
    await save(first.client, {
      name: "ping_b",
      description: "calls a",
      code: "return await skills.ping_a({});",
    });
    const r = await execute(second.client, { code: "return await skills.ping_a({});" });
    expect(r.error).toMatchObject({ name: "RecursionError" });
    expect(r.error?.message).toContain("ping_a → ping_b → ping_a");
  });

  it("says which skill and which line of it an error came from", async () => {
    await save(first.client, {
      name: "broken",
      description: "fails on its third line",
      code: "const a = 1;\nconst b = a + 1;\nthrow new RangeError('bad value ' + b);",
    });
    const r = await execute(second.client, { code: "const x = 1;\nreturn await skills.broken({});" });
    expect(r.error).toMatchObject({ name: "RangeError", line: 2 });
    expect(r.error?.message).toBe("in skills.broken line 3: bad value 2");
    expect(r.error?.stack).toContain("skills.broken:3");
  });

  it("refuses a save with a syntax error, naming line and column", async () => {
    const r = await save(first.client, { name: "bad_syntax", description: "x", code: "const a = ;" });
    expect(r.error).toMatchObject({ name: "SyntaxError" });
    expect(r.error?.message).toMatch(/line 1, column \d+/);
  });

  it("reports an unknown skill clearly", async () => {
    const r = await execute(second.client, { code: "return await skills.no_such_skill({});" });
    expect(r.error).toMatchObject({ name: "UnknownSkillError" });
  });

  it("offers skills as skill:// resources (SKILL.md)", async () => {
    const { resources } = await second.client.listResources();
    expect(resources.map((r) => r.uri)).toContain("skill://open_tickets_per_customer");
    const read = await second.client.readResource({ uri: "skill://open_tickets_per_customer" });
    const text = (read.contents[0] as { text: string }).text;
    expect(text).toMatch(/^---\nname: "?open_tickets_per_customer"?\n/);
    expect(text).toContain("description:");
    expect(text).toContain("await tools.demo.list_tickets");
  });

  it("keeps teams apart: another team neither finds, reads nor runs them", async () => {
    const other = await connect(
      await teamWithKey("e2e-skills-b", { servers: { demo: { service: "DEMO" } } }),
    );
    try {
      const r = await execute(other.client, {
        code: "const list = await skills.list(); try { await skills.open_tickets_per_customer({ top: 1 }); return list; } catch (e) { return [list, e.name]; }",
      });
      expect(r.result).toEqual([[], "UnknownSkillError"]);
      const found = await other.client.callTool({
        name: "search_tools",
        arguments: { query: "open tickets per customer", detail: "name", limit: 100 },
      });
      expect(JSON.stringify(answer(found))).not.toContain("skills.open_tickets_per_customer");
      await expect(other.client.readResource({ uri: "skill://open_tickets_per_customer" })).rejects.toThrow(
        /not found/i,
      );
    } finally {
      await other.client.close();
    }
  });

  it("deletes every version", async () => {
    const r = await execute(first.client, {
      code: "const gone = await skills.delete('top_customer'); try { await skills.get('top_customer'); return gone; } catch (e) { return [gone, e.name]; }",
    });
    expect(r.result).toEqual([true, "NotFoundError"]);
    const res = await fetch(`${gatewayUrl()}/v1/skills/top_customer?version=1`, { headers: AUTH });
    expect(res.status).toBe(404);
  });
});
