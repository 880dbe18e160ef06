import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../shared/contract/tools";
import { callSignature, schemaToTs, toolDeclaration } from "../../workers/gateway/discovery/typescript";
import { assertValidTs, tool } from "../helpers/declarations";
import { NASTY } from "../helpers/nasty-schemas";

const TICKET: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    subject: { type: "string" },
    status: { enum: ["open", "pending", "closed"] },
    customer: {
      type: "object",
      properties: { id: { type: "string" }, email: { type: "string", format: "email" } },
      required: ["id"],
    },
  },
  required: ["id", "subject", "status"],
};

const LIST_TICKETS = tool({
  name: "list_tickets",
  title: "List tickets",
  description: "List support tickets, newest first.",
  annotations: { readOnlyHint: true },
  inputSchema: {
    type: "object",
    properties: {
      status: {
        type: "string",
        enum: ["open", "pending", "closed"],
        description: "Only tickets with this status.",
      },
      limit: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "Page size." },
      cursor: { type: ["string", "null"], description: "From a previous page's `nextCursor`." },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      tickets: { type: "array", items: { $ref: "#/$defs/Ticket" } },
      nextCursor: { type: "string" },
    },
    required: ["tickets"],
    $defs: { Ticket: TICKET },
  },
});

describe("schemaToTs", () => {
  it("maps primitive types, type arrays and missing schemas", () => {
    expect(schemaToTs({ type: "string" })).toBe("string");
    expect(schemaToTs({ type: "integer" })).toBe("number");
    expect(schemaToTs({ type: "null" })).toBe("null");
    expect(schemaToTs({ type: ["string", "null"] })).toBe("string | null");
    expect(schemaToTs({})).toBe("unknown");
    expect(schemaToTs({ type: "object" })).toBe("{ [key: string]: unknown }");
    expect(schemaToTs({ type: "object", properties: {} })).toBe("{}");
  });

  it("turns enum and const into literal unions", () => {
    expect(schemaToTs({ type: "string", enum: ["open", "closed"] })).toBe('"open" | "closed"');
    expect(schemaToTs({ enum: [1, "a", null, true] })).toBe('1 | "a" | null | true');
    expect(schemaToTs({ const: "fixed" })).toBe('"fixed"');
    expect(schemaToTs({ enum: [] })).toBe("never");
  });

  it("marks properties that are not required as optional and quotes keys that are not identifiers", () => {
    const ts = schemaToTs({
      type: "object",
      properties: { id: { type: "string" }, "x-trace": { type: "string" }, "2fa": { type: "boolean" } },
      required: ["id"],
    });
    expect(ts).toBe('{\n  id: string;\n  "x-trace"?: string;\n  "2fa"?: boolean;\n}');
  });

  it("lists required keys missing from properties as unknown", () => {
    expect(schemaToTs({ type: "object", required: ["a"] })).toContain("a: unknown;");
  });

  it("indents nested objects from the given indentation", () => {
    const ts = schemaToTs(
      { type: "object", properties: { a: { type: "object", properties: { b: { type: "number" } } } } },
      "  ",
    );
    expect(ts).toBe("{\n    a?: {\n      b?: number;\n    };\n  }");
  });

  it("types arrays, unions of items and tuples (draft-07 and 2020-12)", () => {
    expect(schemaToTs({ type: "array", items: { type: "string" } })).toBe("string[]");
    expect(schemaToTs({ type: "array", items: { type: ["string", "number"] } })).toBe("(string | number)[]");
    expect(schemaToTs({ type: "array" })).toBe("unknown[]");
    expect(
      schemaToTs({ type: "array", prefixItems: [{ type: "number" }, { type: "string" }], minItems: 2 }),
    ).toBe("[number, string, ...unknown[]]");
    expect(
      schemaToTs({
        type: "array",
        items: [{ type: "number" }, { type: "string" }],
        additionalItems: false,
        minItems: 1,
      }),
    ).toBe("[number, string?]");
    expect(schemaToTs({ type: "array", prefixItems: [{ type: "number" }], items: { type: "boolean" } })).toBe(
      "[number?, ...boolean[]]",
    );
  });

  it("maps anyOf/oneOf to unions and allOf to intersections, with parentheses where needed", () => {
    expect(schemaToTs({ anyOf: [{ type: "string" }, { type: "number" }] })).toBe("string | number");
    expect(schemaToTs({ oneOf: [{ const: "a" }, { const: "b" }] })).toBe('"a" | "b"');
    const all = schemaToTs({
      allOf: [
        { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        {
          anyOf: [
            { type: "object", properties: { b: { type: "number" } }, required: ["b"] },
            { type: "null" },
          ],
        },
      ],
    });
    expect(all).toBe("{\n  a: string;\n} & ({\n  b: number;\n} | null)");
    expect(schemaToTs({ anyOf: [{ type: "string" }, {}] })).toBe("unknown");
    expect(schemaToTs({ type: "string", nullable: true })).toBe("string | null");
  });

  it("types additionalProperties and patternProperties as index signatures", () => {
    expect(schemaToTs({ type: "object", additionalProperties: { type: "number" } })).toBe(
      "{ [key: string]: number }",
    );
    expect(
      schemaToTs({ type: "object", properties: { a: { type: "string" } }, additionalProperties: true }),
    ).toBe("{\n  a?: string;\n  [key: string]: unknown;\n}");
    expect(
      schemaToTs({
        type: "object",
        properties: { a: { type: "string" } },
        additionalProperties: { type: "number" },
      }),
    ).toBe("{\n  a?: string;\n} & { [key: string]: number }");
    expect(schemaToTs({ type: "object", additionalProperties: false })).toBe("{}");
  });

  it("writes descriptions and hints as doc comments and escapes */", () => {
    const ts = schemaToTs({
      type: "object",
      properties: {
        limit: { type: "integer", description: "Page size.", default: 20, minimum: 1, maximum: 100 },
        since: { type: "string", format: "date-time" },
        note: { type: "string", description: "Ends */ early\nSecond line" },
        page_size: { type: "integer", title: "Page Size" },
      },
    });
    expect(ts).toContain("  /** Page size. (integer, default: 20, min 1, max 100) */\n  limit?: number;");
    expect(ts).toContain("  /** (format: date-time) */\n  since?: string;");
    expect(ts).toContain("  /**\n   * Ends *\\/ early\n   * Second line\n   */\n  note?: string;");
    expect(ts).not.toContain("Page Size");
    assertValidTs(`type T = ${ts};`);
  });

  it("resolves $ref to $defs and definitions, and types cycles as unknown", () => {
    const ts = schemaToTs(NASTY.refs!);
    expect(ts).toContain("a?: {\n    name: string;\n  };");
    expect(ts).toContain("b?: number;");
    expect(ts).toContain("tree?: {\n    value?: number;\n    children?: unknown[];\n  };");
    expect(ts).toContain('escaped?: "x";');
    expect(ts).toContain("missing?: unknown;");
    expect(ts).toContain("remote?: unknown;");
    expect(ts).toContain("ping?: {\n    pong?: {\n      ping?: unknown;\n    };\n  };");
  });

  it("is deterministic", () => {
    expect(schemaToTs(NASTY.combinators!)).toBe(schemaToTs(NASTY.combinators!));
  });
});

describe("toolDeclaration", () => {
  it("shows how to call the tool, its arguments and its typed result", () => {
    const decl = toolDeclaration(LIST_TICKETS);
    expect(decl).toContain("Call: await tools.demo.list_tickets(args)");
    expect(decl).toContain('or: await callTool("demo.list_tickets", args)');
    expect(decl).toContain("declare namespace tools.demo {\n  function list_tickets(args?: {\n");
    expect(decl).toContain(
      '    /** Only tickets with this status. */\n    status?: "open" | "pending" | "closed";',
    );
    expect(decl).toContain("}): Promise<{\n    tickets: {\n      id: string;");
    expect(decl).toContain("Hints: read-only.");
    expect(decl).toMatch(/\}>;\n\}$/);
    assertValidTs(decl);
  });

  it("returns unknown and explains unwrapping when there is no output schema", () => {
    const decl = toolDeclaration(
      tool({
        server: "everything",
        name: "get-sum",
        description: "Returns the sum of two numbers.",
        inputSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
      }),
    );
    expect(decl).toContain("Call: await tools.everything.get_sum(args)");
    expect(decl).toContain('callTool("everything.get-sum", args)');
    expect(decl).toContain('(MCP tool "get-sum" on server "everything")');
    expect(decl).toContain("structuredContent when it sends one, else its text content");
    expect(decl).toContain(
      "function get_sum(args: {\n    a: number;\n    b: number;\n  }): Promise<unknown>;",
    );
    assertValidTs(decl);
  });

  it("falls back to an object type for server names and tool names that cannot be declared", () => {
    const decl = toolDeclaration(
      tool({ server: "my-server", name: "delete", inputSchema: { type: "object" } }),
    );
    expect(decl).toContain('Call: await tools["my-server"].delete(args)');
    expect(decl).toContain(
      'declare const tools: {\n  "my-server": {\n    delete(args?: { [key: string]: unknown }): Promise<unknown>;',
    );
    assertValidTs(decl);
  });

  it("escapes comment terminators in descriptions", () => {
    const decl = toolDeclaration(
      tool({ name: "x", description: "evil */ declare const pwned: 1; /*", inputSchema: {} }),
    );
    expect(decl).toContain("evil *\\/ declare");
    assertValidTs(decl);
  });
});

describe("callSignature", () => {
  it("is one compact line with the call path, argument types and result type", () => {
    expect(callSignature(LIST_TICKETS)).toBe(
      'tools.demo.list_tickets(args?: { status?: "open" | "pending" | "closed"; limit?: number; cursor?: string | null }): ' +
        'Promise<{ tickets: { id: string; subject: string; status: "open" | "pending" | "closed"; customer?: {…} }[]; nextCursor?: string }>',
    );
  });

  it("uses the JavaScript name and says unknown without an output schema", () => {
    const sig = callSignature(
      tool({
        server: "everything",
        name: "get-sum",
        inputSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
      }),
    );
    expect(sig).toBe("tools.everything.get_sum(args: { a: number; b: number }): Promise<unknown>");
  });
});
