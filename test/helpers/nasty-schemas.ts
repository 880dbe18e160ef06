import type { JsonSchema } from "../../shared/contract/tools";

/** An object nested `n` levels deep through a required `child`, with a string at the bottom. */
export const deep = (n: number): JsonSchema =>
  n === 0 ? { type: "string" } : { type: "object", properties: { child: deep(n - 1) }, required: ["child"] };

/** Schemas chosen to break naive generators: every one must still give valid TypeScript. */
export const NASTY: Record<string, JsonSchema> = {
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
