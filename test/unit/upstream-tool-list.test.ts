import { describe, expect, it } from "vitest";
import { DEFAULT_ENGINE } from "../../shared/contract/engine";
import { forgetMemo } from "../../workers/gateway/upstreams/cache";
import { forgetSessions } from "../../workers/gateway/upstreams/client";
import { admitTool, MAX_TOOL_DEPTH, nestsDeeperThan } from "../../workers/gateway/upstreams/tool-list";
import { testContext } from "../helpers/context";
import { asFetcher, count, legacyUpstream, modernUpstream } from "../helpers/era-upstreams";
import { execute } from "../helpers/execute";
import { deep } from "../helpers/nasty-schemas";

/** Tools no SDK server would list, added to a real server's tools/list answer. */
const BAD_TOOLS = [
  { name: "deep_tool", description: "Nested 1,000 levels.", inputSchema: deep(1000) },
  { name: "no_schema", description: "Has no inputSchema." },
];

/** `upstream` with BAD_TOOLS appended to each tools/list result (JSON answers). */
function withBadTools(upstream: { fetch(request: Request): Promise<Response> }): Fetcher {
  return asFetcher(async (request) => {
    const body = request.method === "POST" ? await request.clone().text() : "";
    const response = await upstream.fetch(request);
    if (!body.includes('"tools/list"')) return response;
    const message = (await response.json()) as { result: { tools: unknown[] } };
    message.result.tools.push(...BAD_TOOLS);
    return new Response(JSON.stringify(message), { status: response.status, headers: response.headers });
  });
}

const CODE = `
const found = await searchTools("add two numbers", { server: "bad" });
const definition = await getToolDefinition("bad.add");
const refused = [];
for (const name of ["deep_tool", "no_schema"]) {
  try { await getToolDefinition("bad." + name); } catch (e) { refused.push(e.name + ": " + e.message); }
}
try { await tools.bad.deep_tool({}); } catch (e) { refused.push(e.name + ": " + e.message); }
return {
  warnings: found.warnings,
  names: found.tools.map((t) => t.name),
  declared: definition.typescript.includes("function add("),
  sum: await tools.bad.add({ a: 2, b: 3 }),
  refused,
};`;

describe("one bad tool in an upstream's list", () => {
  it.each([
    ["2025-11-25", () => legacyUpstream("bad", { stateless: true }), true],
    ["2026-07-28", () => modernUpstream({ name: "bad" }), false],
  ])(
    "is left out and named, and the server's other tools work (%s, default engine)",
    async (_, make, legacy) => {
      forgetMemo();
      forgetSessions();
      const servers = { bad: { service: "BAD", description: `bad tools ${crypto.randomUUID()}` } };
      const upstream = make();
      const ctx = testContext(
        {},
        { MCP_SERVERS: JSON.stringify(servers), BAD: withBadTools(upstream) } as never,
        DEFAULT_ENGINE,
      );
      const r = await execute(ctx, { code: CODE });
      expect(r.error).toBeUndefined();
      expect(count(upstream.wire, "initialize") > 0).toBe(legacy);
      const depth = `its inputSchema nests deeper than ${MAX_TOOL_DEPTH} levels`;
      const invalid = "not a valid tool (inputSchema: Invalid input: expected record, received undefined)";
      expect(r.result).toEqual({
        warnings: [`bad: 2 tools left out: deep_tool (${depth}), no_schema (${invalid})`],
        names: ["bad.add"],
        declared: true,
        sum: { sum: 5 },
        refused: [
          `UpstreamError: bad.deep_tool: left out of the catalog (${depth}); use another tool`,
          `UpstreamError: bad.no_schema: left out of the catalog (${invalid}); use another tool`,
          `UpstreamError: bad.deep_tool: left out of the catalog (${depth}); use another tool`,
        ],
      });
    },
  );
});

describe("admitTool", () => {
  it("measures depth without recursion, and names a nameless tool by its place", () => {
    let value: unknown = {};
    for (let i = 0; i < 200_000; i++) value = [value];
    expect(nestsDeeperThan(value, MAX_TOOL_DEPTH)).toBe(true);
    expect(nestsDeeperThan(deep(60), MAX_TOOL_DEPTH)).toBe(false);
    expect(admitTool({ name: "wide", inputSchema: { x: value } }, 0)).toEqual({
      leftOut: { name: "wide", reason: `its inputSchema nests deeper than ${MAX_TOOL_DEPTH} levels` },
    });
    expect(admitTool({ inputSchema: {} }, 7)).toMatchObject({ leftOut: { name: "tools[7]" } });
    expect(admitTool({ name: "ok", inputSchema: deep(60) }, 0)).toMatchObject({ tool: { name: "ok" } });
  });
});
