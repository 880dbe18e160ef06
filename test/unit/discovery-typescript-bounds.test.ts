import { describe, expect, it } from "vitest";
import { callSignature, schemaToTs, toolDeclaration } from "../../workers/gateway/discovery/typescript";
import { assertValidTs, tool } from "../helpers/declarations";
import { deep, NASTY } from "../helpers/nasty-schemas";

// Nasty schemas: size and depth bounds, and syntactically valid output whatever the input.

describe("schemaToTs", () => {
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
});

describe("toolDeclaration", () => {
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
