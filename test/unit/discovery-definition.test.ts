import { describe, expect, it } from "vitest";
import type { SearchResult, ToolDefinition, ToolEntry } from "../../shared/contract/discovery";
import type { CatalogTool, JsonSchema } from "../../shared/contract/tools";
import { toolDefinition } from "../../workers/gateway/discovery/service";
import { declareTool, schemaToTs } from "../../workers/gateway/discovery/typescript";
import { AUTH, initialize, request, rpc } from "../helpers/app";
import { assertValidTs, tool } from "../helpers/declarations";
import { NASTY } from "../helpers/nasty-schemas";

/**
 * The answers before compact discovery (commit 5d16be0, `node scripts/bench/discovery-answers.mjs
 * --ref 5d16be0`): characters of the JSON text, get_tool_definition per demo tool and search_tools at
 * its defaults. The target is half of each.
 */
const DEFINITION_BEFORE: Record<string, number> = {
  "demo.list_tickets": 6_081,
  "demo.get_ticket": 4_297,
  "demo.search_tickets": 3_982,
  "demo.ticket_stats": 4_842,
  "demo.create_ticket": 4_069,
  "demo.update_ticket": 4_164,
  "demo.add_ticket_comment": 4_432,
  "demo.list_customers": 4_009,
  "demo.get_customer": 4_354,
  "demo.search_customers": 3_142,
  "demo.list_agents": 2_085,
};
const SEARCH_BEFORE: Record<string, number> = {
  "tickets customers": 4_738,
  "close ticket": 3_838,
  "open tickets by priority": 3_898,
  "customer email": 3_394,
};

const NOISE = /9007199254740991/;

async function get(path: string): Promise<{ status: number; text: string }> {
  const res = await request(path, { headers: AUTH });
  return { status: res.status, text: await res.text() };
}

async function demoTools(): Promise<ToolEntry[]> {
  const { text } = await get("/v1/tools?server=demo&detail=full&limit=100");
  return (JSON.parse(text) as SearchResult).tools;
}

describe("get_tool_definition on the demo upstream", () => {
  it("answers every demo tool in at most half the characters it took before, without noise bounds", async () => {
    const tools = await demoTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(DEFINITION_BEFORE).sort());
    for (const entry of tools) {
      const { status, text } = await get(`/v1/tools/${entry.name}`);
      expect(status, entry.name).toBe(200);
      expect(text.length, entry.name).toBeLessThanOrEqual(DEFINITION_BEFORE[entry.name]! / 2);
      const definition = JSON.parse(text) as ToolDefinition;
      // demo.update_ticket is annotated destructiveHint: the default APPROVALS ("destructive") says so.
      const approval = entry.name === "demo.update_ticket" ? ["approval"] : [];
      expect(Object.keys(definition), entry.name).toEqual(["name", "server", "typescript", ...approval]);
      expect(definition.typescript, entry.name).not.toMatch(NOISE);
      expect(definition.typescript, entry.name).not.toContain("$schema");
      assertValidTs(definition.typescript);
    }
  });

  it("carries the schema's descriptions, enums, bounds, defaults and item patterns in the declaration", async () => {
    const list = JSON.parse((await get("/v1/tools/demo.list_tickets")).text) as ToolDefinition;
    expect(list.typescript).toContain(
      '    /** Only tickets with this status. */\n    status?: "open" | "pending" | "resolved" | "closed";',
    );
    expect(list.typescript).toContain(
      "    /** Page size, 1-100 (default 20). (integer, default: 20, min 1, max 100) */\n    limit?: number;",
    );
    expect(list.typescript).toContain("/** Tickets matching the filters, over all pages (integer) */");
    expect(list.typescript).toContain("List support tickets, newest first");
    expect(list.typescript).toContain("Hints: read-only.");
    const update = JSON.parse((await get("/v1/tools/demo.update_ticket")).text) as ToolDefinition;
    expect(update.typescript).toContain(
      " * string: Agent name as list_agents returns it (case-insensitive). (min length 1, max length 100)",
    );
    expect(update.typescript).toContain(
      ' * Each: A tag, e.g. "billing" or "vip". (pattern: ^[a-z0-9][a-z0-9-]{0,31}$)',
    );
  });

  it("gives the JSON Schemas on request, by REST and MCP, exactly as the upstream lists them", async () => {
    const entry = (await demoTools()).find((t) => t.name === "demo.list_tickets")!;
    const rest = JSON.parse((await get("/v1/tools/demo.list_tickets?schema=true")).text) as ToolDefinition;
    expect(rest.inputSchema).toEqual(entry.inputSchema);
    expect(rest.outputSchema).toEqual(entry.outputSchema);
    expect(rest.typescript).toBe(
      (JSON.parse((await get("/v1/tools/demo.list_tickets")).text) as ToolDefinition).typescript,
    );
    const bad = await get("/v1/tools/demo.list_tickets?schema=yes");
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('schema must be \\"true\\" or \\"false\\"');

    const session = await initialize();
    const call = async (args: Record<string, unknown>) => {
      const res = await rpc(
        "tools/call",
        { name: "get_tool_definition", arguments: args },
        {
          "Mcp-Session-Id": session,
          "Mcp-Protocol-Version": "2025-11-25",
        },
      );
      const body = (await res.json()) as { result: { content: Array<{ text: string }> } };
      return body.result.content[0]!.text;
    };
    const withSchema = JSON.parse(await call({ name: "demo.list_tickets", schema: true })) as ToolDefinition;
    expect(withSchema).toEqual(rest);
    const plain = await call({ name: "demo.list_tickets" });
    expect(plain).toBe((await get("/v1/tools/demo.list_tickets")).text);
  });
});

describe("search_tools on the demo upstream", () => {
  it("answers a ranked page of 5 with the total, in at most half the characters it took before", async () => {
    for (const [query, before] of Object.entries(SEARCH_BEFORE)) {
      const { text } = await get(`/v1/tools?q=${encodeURIComponent(query)}`);
      const all = JSON.parse(
        (await get(`/v1/tools?q=${encodeURIComponent(query)}&detail=name&limit=100`)).text,
      );
      const page = JSON.parse(text) as SearchResult;
      expect(
        page.tools.map((t) => t.name),
        query,
      ).toEqual((all as SearchResult).tools.slice(0, 5).map((t) => t.name));
      expect(page.total, query).toBe((all as SearchResult).total);
      expect(page.total, query).toBeGreaterThan(5);
      expect(text.length, query).toBeLessThanOrEqual(before / 2);
    }
  });
});

const definitionOf = (t: CatalogTool, schema?: boolean) =>
  toolDefinition({ tools: [t], servers: [{ name: t.server, state: "ok", tools: 1 }] }, t.qualifiedName, {
    schema,
  });

describe("what the declaration says and when the JSON Schema comes along", () => {
  it("leaves out bounds at ±MAX_SAFE_INTEGER and keeps meaningful ones", () => {
    const ts = schemaToTs({
      type: "object",
      properties: {
        count: {
          type: "integer",
          minimum: -9007199254740991,
          maximum: 9007199254740991,
          description: "Count",
        },
        size: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        step: { type: "number", multipleOf: 5, exclusiveMinimum: 0 },
        ids: { type: "array", items: { type: "string" }, uniqueItems: true, minItems: 1 },
      },
    });
    expect(ts).not.toMatch(NOISE);
    expect(ts).toContain("/** Count (integer) */\n  count?: number;");
    expect(ts).toContain("/** (integer, min 0) */\n  size?: number;");
    expect(ts).toContain("/** (> 0, multiple of 5) */\n  step?: number;");
    expect(ts).toContain("/** (min items 1, unique items) */\n  ids?: string[];");
  });

  it("adds nothing to the declaration when it says everything the schemas say", () => {
    const t = tool({
      name: "plain",
      inputSchema: {
        type: "object",
        properties: { q: { type: "string", pattern: "^[a-z]+$", maxLength: 10 } },
        additionalProperties: false,
      },
      outputSchema: { type: "object", properties: { n: { type: "integer" } } },
    });
    expect(declareTool(t)).toMatchObject({ inputUnexpressed: false, outputUnexpressed: false });
    const definition = definitionOf(t);
    expect(Object.keys(definition)).toEqual(["name", "server", "typescript"]);
    expect(definition.typescript).not.toContain("JSON Schema says more");
    const asked = definitionOf(t, true);
    expect(asked.inputSchema).toEqual(t.inputSchema);
    expect(asked.outputSchema).toEqual(t.outputSchema);
  });

  it("brings the schema of a side whose constraints TypeScript and doc comments cannot say, or that was cut", () => {
    const cases: [string, JsonSchema][] = [
      ["not", { type: "object", properties: { a: { type: "string", not: { const: "x" } } } }],
      ["if/else", { type: "object", if: { required: ["a"] }, else: { required: ["b"] } }],
      ["dependentRequired", { type: "object", dependentRequired: { a: ["b"] } }],
      ["patternProperties", { type: "object", patternProperties: { "^x-": { type: "string" } } }],
      [
        "long pattern",
        { type: "object", properties: { a: { type: "string", pattern: `^${"a".repeat(250)}$` } } },
      ],
      [
        "long description",
        { type: "object", properties: { a: { type: "string", description: "d".repeat(700) } } },
      ],
      ["remote $ref", { type: "object", properties: { a: { $ref: "https://example.com/s.json" } } }],
      ["too wide", NASTY.wide!],
    ];
    for (const [label, schema] of cases) {
      const t = tool({ name: "t", inputSchema: schema, outputSchema: { type: "object" } });
      const definition = definitionOf(t);
      expect(definition.inputSchema, label).toEqual(schema);
      expect(definition.outputSchema, label).toBeUndefined();
      expect(definition.typescript, label).toContain(
        "Its JSON Schema says more than shown here: see inputSchema.",
      );
    }
    const output = definitionOf(
      tool({
        name: "o",
        inputSchema: { type: "object" },
        outputSchema: { type: "object", propertyNames: { maxLength: 3 } },
      }),
    );
    expect(output.inputSchema).toBeUndefined();
    expect(output.outputSchema).toEqual({ type: "object", propertyNames: { maxLength: 3 } });
  });

  it("gives the description only when the declaration had to cut it", () => {
    const long = `${"Lists things. ".repeat(200)}`.trim();
    expect(definitionOf(tool({ name: "long", description: long, inputSchema: {} })).description).toBe(long);
    expect(
      definitionOf(tool({ name: "short", description: "Lists things.", inputSchema: {} })).description,
    ).toBeUndefined();
  });
});
