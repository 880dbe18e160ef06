import { parse } from "acorn";
import { transform } from "sucrase";
import { describe, expect, it } from "vitest";
import type { CatalogTool, JsonSchema } from "../../shared/contract/tools";
import { callSignature, schemaToTs, toolDeclaration } from "../../workers/gateway/discovery/typescript";

function tool(over: Partial<CatalogTool> & { name: string; inputSchema: JsonSchema }): CatalogTool {
  const server = over.server ?? "demo";
  return { server, qualifiedName: `${server}.${over.name}`, ...over };
}

/** Strips the TypeScript with sucrase and parses what is left with acorn: throws on invalid syntax. */
function assertValidTs(code: string): void {
  const js = transform(`${code}\nexport {};\n`, { transforms: ["typescript"] }).code;
  parse(js, { ecmaVersion: "latest", sourceType: "module" });
}

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

const deep = (n: number): JsonSchema =>
  n === 0 ? { type: "string" } : { type: "object", properties: { child: deep(n - 1) }, required: ["child"] };

/** Schemas chosen to break naive generators: every one must still give valid TypeScript. */
const NASTY: Record<string, JsonSchema> = {
  empty: {},
  booleanSchemas: { type: "object", properties: { anything: true, nothing: false } },
  weirdKeys: {
    type: "object",
    properties: {
      "x-api-key": { type: "string" },
      "123start": { type: "number" },
      "with space": { type: "boolean" },
      'quote"s': { type: "string" },
      "back\\slash": { type: "string" },
      "new\nline": { type: "string" },
      "*/": { type: "string", description: "ends a comment */ here /* and opens one" },
      ...JSON.parse('{"__proto__": {"type": "string"}}'),
      constructor: { type: "number" },
      "": { type: "string" },
      ünïcødé: { type: "string" },
      $dollar: { type: "string" },
      delete: { type: "string" },
    },
    required: ["x-api-key", "missing-from-properties"],
  },
  typeArrays: {
    type: "object",
    properties: {
      a: { type: ["string", "number", "null"] },
      b: { type: ["array", "object"], items: { type: "integer" }, properties: { k: { type: "string" } } },
    },
  },
  literals: {
    type: "object",
    properties: {
      mixed: { enum: ["a", 1, true, null, { x: [1, "y"] }, [1, 2], -3.5, 'q"uote', "*/", "\u2028"] },
      empty: { enum: [] },
      c: { const: "fixed" },
      cobj: { const: { "a-b": [1, { b: null }] } },
      huge: { const: 1e300 },
    },
  },
  combinators: {
    type: "object",
    properties: {
      u: {
        anyOf: [
          { type: "string" },
          { type: "array", items: { anyOf: [{ type: "number" }, { type: "null" }] } },
        ],
      },
      o: {
        oneOf: [
          { type: "object", properties: { kind: { const: "a" }, a: { type: "string" } }, required: ["kind"] },
          { type: "object", properties: { kind: { const: "b" } } },
        ],
      },
      i: {
        allOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { anyOf: [{ properties: { b: { type: "number" } } }, { properties: { c: { type: "number" } } }] },
        ],
      },
      opt: { anyOf: [{ type: "string", format: "date" }, { type: "null" }], default: null },
      nullable: { type: "string", nullable: true },
      never: { allOf: [false] },
      req: {
        type: "object",
        properties: { a: { type: "string" } },
        oneOf: [{ required: ["a"] }, { required: ["b"] }],
      },
    },
  },
  arrays: {
    type: "object",
    properties: {
      tuple07: {
        type: "array",
        items: [{ type: "number" }, { type: "string" }],
        additionalItems: false,
        minItems: 1,
      },
      tuple2020: {
        type: "array",
        prefixItems: [{ type: "number" }, { anyOf: [{ type: "string" }, { type: "null" }] }],
        items: { type: "boolean" },
      },
      nested: {
        type: "array",
        items: { type: "array", items: { type: "object", properties: { x: { type: "number" } } } },
      },
      unionItems: { type: "array", items: { type: ["string", "number"] } },
      bare: { type: "array" },
      longTuple: { type: "array", prefixItems: Array.from({ length: 30 }, () => ({ type: "number" })) },
    },
  },
  additional: {
    type: "object",
    properties: {
      mapOnly: { type: "object", additionalProperties: { type: "number" } },
      mixed: {
        type: "object",
        properties: { a: { type: "string" } },
        additionalProperties: { type: "number" },
      },
      open: { type: "object", properties: { a: { type: "string" } }, additionalProperties: true },
      closed: { type: "object", additionalProperties: false },
      pattern: {
        type: "object",
        patternProperties: { "^x-": { type: "string" }, "^n-": { type: "number" } },
      },
    },
  },
  refs: {
    type: "object",
    properties: {
      a: { $ref: "#/$defs/A" },
      b: { $ref: "#/definitions/B" },
      tree: { $ref: "#/$defs/Node" },
      missing: { $ref: "#/$defs/Nope" },
      remote: { $ref: "https://example.com/schema.json" },
      self: { $ref: "#" },
      escaped: { $ref: "#/$defs/a~1b%20c" },
      badEscape: { $ref: "#/$defs/%E0%A4%A" },
      ping: { $ref: "#/$defs/Ping" },
    },
    $defs: {
      A: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      Node: {
        type: "object",
        properties: {
          value: { type: "number" },
          children: { type: "array", items: { $ref: "#/$defs/Node" } },
        },
      },
      "a/b c": { type: "string", enum: ["x"] },
      Ping: { type: "object", properties: { pong: { $ref: "#/$defs/Pong" } } },
      Pong: { type: "object", properties: { ping: { $ref: "#/$defs/Ping" } } },
    },
    definitions: { B: { type: "integer" } },
  },
  deep: deep(30),
  wide: {
    type: "object",
    properties: Object.fromEntries(
      Array.from({ length: 5_000 }, (_, i) => [
        `field_${i}`,
        { type: "string", description: `Field ${i} of many.` },
      ]),
    ),
  },
  hugeEnum: {
    type: "object",
    properties: { e: { enum: Array.from({ length: 20_000 }, (_, i) => `value-${i}`) } },
  },
  wideUnion: {
    type: "object",
    properties: {
      u: {
        anyOf: Array.from({ length: 3_000 }, (_, i) => ({
          type: "object",
          properties: { [`k${i}`]: { const: i } },
          required: [`k${i}`],
        })),
      },
    },
  },
  longStrings: {
    type: "object",
    properties: {
      c: { const: "x".repeat(100_000) },
      d: {
        type: "string",
        description: "y".repeat(100_000),
        default: "z".repeat(100_000),
        pattern: "p".repeat(1_000),
      },
      ["k".repeat(1_000)]: { type: "string" },
    },
  },
  refBomb: {
    type: "object",
    properties: { root: { $ref: "#/$defs/L0" } },
    $defs: Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [
        `L${i}`,
        {
          type: "object",
          properties: {
            a: { $ref: `#/$defs/L${i + 1}` },
            b: { $ref: `#/$defs/L${i + 1}` },
            c: { $ref: `#/$defs/L${i + 1}` },
          },
        },
      ]),
    ),
  },
  junk: {
    type: "object",
    properties: {
      a: { type: 42 },
      b: { type: "frobnicate" },
      c: null,
      d: "string",
      e: { items: 5, properties: [1, 2] },
    },
    required: "nope",
  },
};

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

  it("stops at the depth limit", () => {
    const ts = schemaToTs(deep(30));
    expect(ts.match(/child:/g)?.length).toBe(9);
    expect(ts).toContain("child: unknown;");
    expect(schemaToTs(deep(30), "", { maxDepth: 2 }).match(/child:/g)?.length).toBe(3);
  });

  it("keeps monstrous schemas within the character budget", () => {
    for (const name of ["wide", "hugeEnum", "wideUnion", "longStrings", "refBomb"]) {
      const ts = schemaToTs(NASTY[name]!);
      expect(ts.length, name).toBeLessThan(16_000);
      expect(schemaToTs(NASTY[name]!, "", { maxChars: 2_000 }).length, name).toBeLessThan(4_000);
    }
    const wide = schemaToTs(NASTY.wide!);
    expect(wide).toMatch(/\/\/ … \d+ more properties\n {2}\[key: string\]: unknown;\n}$/);
    expect(schemaToTs(NASTY.hugeEnum!)).toMatch(/"value-99" \| string;/);
    expect(schemaToTs(NASTY.wideUnion!)).toMatch(/\/\* … \d+ more alternatives \*\//);
  });

  it("gives syntactically valid TypeScript for nasty schemas", () => {
    for (const [name, schema] of Object.entries(NASTY)) {
      expect(() => assertValidTs(`type T = ${schemaToTs(schema)};`), name).not.toThrow();
    }
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

  it("gives valid TypeScript for every nasty schema, alone and all together", () => {
    const all: string[] = [];
    for (const [name, schema] of Object.entries(NASTY)) {
      const decl = toolDeclaration(
        tool({
          name: `t-${name}`,
          description: `Nasty ${name} */`,
          inputSchema: schema,
          outputSchema: schema,
        }),
      );
      expect(() => assertValidTs(decl), name).not.toThrow();
      expect(decl.length, name).toBeLessThan(25_000);
      all.push(decl);
    }
    expect(() => assertValidTs(all.join("\n\n"))).not.toThrow();
  });

  it("says when part of the schema was left out", () => {
    const decl = toolDeclaration(tool({ name: "wide", inputSchema: NASTY.wide! }));
    expect(decl).toContain("too large or too deep to show");
  });

  it("the syntax check catches broken TypeScript", () => {
    expect(() => assertValidTs("type T = { a b: string };")).toThrow();
    expect(() => assertValidTs("declare namespace tools.demo { function delete(): void; }")).toThrow();
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

  it("collapses nesting and caps the length for big schemas", () => {
    for (const [name, schema] of Object.entries(NASTY)) {
      const sig = callSignature(tool({ name, inputSchema: schema, outputSchema: schema }));
      expect(sig.length, name).toBeLessThanOrEqual(300);
      expect(sig, name).not.toContain("\n");
      expect(sig, name).not.toContain("/**");
      expect(sig.startsWith(`tools.demo.${name}(args`), name).toBe(true);
    }
    const wide = callSignature(tool({ name: "wide", inputSchema: NASTY.wide! }));
    expect(wide.endsWith("…")).toBe(true);
    const nested = callSignature(tool({ name: "n", inputSchema: deep(5) }));
    expect(nested).toBe("tools.demo.n(args: { child: { child: {…} } }): Promise<unknown>");
  });
});
