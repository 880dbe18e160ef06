import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { countTokens } from "../../scripts/lib/tokens.mjs";
import { root } from "../../scripts/lib/wrangler-dev.mjs";
import { AUTH, connect, execute, gatewayUrl } from "./client";

// Upstreams: `demo` (workers/demo-upstream, service binding) and `everything`
// (@modelcontextprotocol/server-everything over streamable HTTP), both real MCP servers.
let client: Client;

beforeAll(async () => {
  ({ client } = await connect());
});
afterAll(async () => {
  await client?.close();
});

type Listed = {
  tools: Array<Record<string, unknown> & { name: string }>;
  total: number;
  warnings?: string[];
};

async function searchTools(args: Record<string, unknown>): Promise<Listed> {
  const res = await client.callTool({ name: "search_tools", arguments: args });
  return JSON.parse((res.content as Array<{ text: string }>)[0]!.text) as Listed;
}

describe("tier 1", () => {
  it("shows the model three small tools, ≤ 1,000 tokens (cl100k), whatever the upstreams hold", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["execute", "get_tool_definition", "search_tools"]);
    expect(countTokens(JSON.stringify(tools))).toBeLessThanOrEqual(1_000);
    const upstream = await searchTools({ detail: "full", limit: 100 });
    expect(upstream.total).toBeGreaterThan(15);
  });
});

describe("discovery", () => {
  it("lists every upstream's tools for an empty query, by qualified name", async () => {
    const listed = await searchTools({ detail: "name", limit: 100 });
    const names = listed.tools.map((t) => t.name);
    expect(names).toContain("everything.echo");
    expect(names).toContain("everything.get-sum");
    expect(names.some((n) => n.startsWith("demo."))).toBe(true);
    expect(listed.tools[0]).toEqual({ name: expect.any(String) });
  });

  it("ranks by name and description, filters by server, and gives signatures at summary level", async () => {
    const found = await searchTools({ query: "sum two numbers" });
    expect(found.tools[0]).toMatchObject({
      name: "everything.get-sum",
      description: expect.any(String),
      signature: expect.stringContaining("get_sum"),
    });
    const demoOnly = await searchTools({ query: "ticket", server: "demo", limit: 3 });
    expect(demoOnly.tools.length).toBeGreaterThan(0);
    expect(demoOnly.tools.length).toBeLessThanOrEqual(3);
    expect(demoOnly.tools.every((t) => t.name.startsWith("demo."))).toBe(true);
  });

  it("gives schemas and annotations at full level", async () => {
    const full = await searchTools({ query: "structured content weather", detail: "full", limit: 1 });
    expect(full.tools[0]).toMatchObject({
      name: "everything.get-structured-content",
      inputSchema: { type: "object" },
      outputSchema: { type: "object" },
    });
  });

  it("returns a tool definition with a TypeScript declaration, and its JSON Schema on request", async () => {
    const res = await client.callTool({
      name: "get_tool_definition",
      arguments: { name: "everything.get-sum", schema: true },
    });
    const def = JSON.parse((res.content as Array<{ text: string }>)[0]!.text) as Record<string, string>;
    expect(def).toMatchObject({
      name: "everything.get-sum",
      server: "everything",
      inputSchema: { type: "object" },
    });
    expect(def.typescript).toContain("get_sum");
    expect(def.typescript).toMatch(/a: number/);
    const unknown = await client.callTool({
      name: "get_tool_definition",
      arguments: { name: "everything.get-summ" },
    });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain("everything.get-sum");
  });

  it("serves the same answers over REST", async () => {
    const res = await fetch(`${gatewayUrl()}/v1/tools?q=echo&server=everything&detail=name`, {
      headers: AUTH,
    });
    expect(await res.json()).toMatchObject({ tools: [{ name: "everything.echo" }] });
    const def = await fetch(`${gatewayUrl()}/v1/tools/everything.echo`, { headers: AUTH });
    expect(await def.json()).toMatchObject({ name: "everything.echo", typescript: expect.any(String) });
    expect((await fetch(`${gatewayUrl()}/v1/tools/nope.nothing`, { headers: AUTH })).status).toBe(404);
  });
});

describe("calls from code", () => {
  it("calls tools by property, bracket and callTool, and counts them", async () => {
    const r = await execute(client, {
      code: `const a = await tools.everything.echo({ message: "hi" });
const b = await tools.everything.get_sum({ a: 2, b: 3 });
const c = await tools.everything["get-sum"]({ a: 1, b: 1 });
const d = await callTool("everything.get-sum", { a: 10, b: 5 });
return { a, b, c, d };`,
    });
    expect(r.error).toBeUndefined();
    expect(r.result).toEqual({
      a: "Echo: hi",
      b: expect.stringContaining("5"),
      c: expect.stringContaining("2"),
      d: expect.stringContaining("15"),
    });
    expect(r.stats.toolCalls).toBe(4);
    expect(r.stats.calls?.map((c) => [c.name, c.count, c.errors])).toEqual([
      ["everything.get-sum", 2, 0],
      ["everything.echo", 1, 0],
      ["everything.get_sum", 1, 0],
    ]);
    expect(r.stats.calls?.every((c) => c.ms >= 0)).toBe(true);
  });

  it("reaches a server that only speaks legacy SSE, by falling back", async () => {
    const r = await execute(client, { code: "return await tools.legacy.echo({ message: 'old' });" });
    expect(r.error).toBeUndefined();
    expect(r.result).toBe("Echo: old");
  });

  it("returns structuredContent when a tool gives it", async () => {
    const r = await execute(client, {
      code: "return await tools.everything.get_structured_content({ location: 'Chicago' });",
    });
    expect(r.result).toMatchObject({ temperature: expect.any(Number) });
  });

  it("validates arguments before calling and names the failing path", async () => {
    const r = await execute(client, { code: "await tools.everything.get_sum({ a: 'one' });" });
    expect(r.error).toMatchObject({ name: "ValidationError", line: 1 });
    expect(r.error?.message).toContain("everything.get-sum");
    expect(r.error?.message).toMatch(/\/a: .*number/);
  });

  it("names an unknown tool and close matches", async () => {
    const r = await execute(client, { code: "await tools.everything.ecoh({ message: 'x' });" });
    expect(r.error).toMatchObject({ name: "UnknownToolError" });
    expect(r.error?.message).toContain("everything.echo");
  });

  it("runs Promise.all calls concurrently", async () => {
    const r = await execute(client, {
      code: `const t0 = Date.now();
await Promise.all([1, 2, 3, 4].map(() => tools.everything.trigger_long_running_operation({ duration: 1, steps: 1 })));
return Date.now() - t0;`,
    });
    expect(r.error).toBeUndefined();
    expect(r.result as number).toBeLessThan(2_500);
    expect(r.stats.toolCalls).toBe(4);
  });

  it("searches and reads definitions from code", async () => {
    const r = await execute(client, {
      code: `const found = await searchTools("echo", { server: "everything", detail: "name" });
const def = await getToolDefinition("everything.echo");
return { first: found.tools[0].name, hasTs: typeof def.typescript };`,
    });
    expect(r.result).toEqual({ first: "everything.echo", hasTs: "string" });
  });

  it("does the README's demo task in one execution and returns only the answer", async () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const code = /## Try it[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(code).toBeDefined();
    const r = await execute(client, { code: code! });
    expect(r.error).toBeUndefined();
    const rows = r.result as Array<{ name: string; email: string; open: number }>;
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatchObject({
      name: expect.any(String),
      email: expect.stringContaining("@"),
      open: expect.any(Number),
    });
    expect(rows.map((row) => row.open)).toEqual([...rows.map((row) => row.open)].sort((a, b) => b - a));
    expect(r.stats.toolCalls).toBeGreaterThanOrEqual(6);
  });
});

describe("upstream failure", () => {
  it("keeps serving search from the cache and fails calls cleanly when an upstream dies", async () => {
    await searchTools({ query: "echo" });
    process.kill(inject("everythingPid"), "SIGKILL");
    await new Promise((r) => setTimeout(r, 300));
    const found = await searchTools({ query: "echo", server: "everything", detail: "name" });
    expect(found.tools.map((t) => t.name)).toContain("everything.echo");
    const r = await execute(client, { code: "return await tools.everything.echo({ message: 'anyone?' });" });
    expect(r.error).toMatchObject({ name: "UpstreamError" });
    expect(r.error?.message).toContain("everything.echo failed");
    const demo = await execute(client, {
      code: "return (await tools.demo.list_tickets({ limit: 1 })).tickets.length;",
    });
    expect(demo.result).toBe(1);
  });
});
