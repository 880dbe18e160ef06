import { describe, expect, it } from "vitest";
import type { CatalogTool } from "../../shared/contract/tools";
import { boundedSchema } from "../../workers/gateway/bridge/schema-bounds";
import { argumentErrors } from "../../workers/gateway/bridge/validate";
import { closeMatches, editDistance } from "../../workers/gateway/discovery/close-matches";
import { globMatcher, toolPolicy } from "../../workers/gateway/teams/policy";
import { TeamInput } from "../../workers/gateway/teams/schema";
import { HANG_GUARD_MS } from "../helpers/hang-guard";

// Work the gateway does on input it does not control (admin globs, upstream schemas, names from
// agent code) must be bounded. Each attack that once cost seconds must now simply return, right;
// the time checks are generous safety nets, the old code took seconds to forever on these inputs.
const tool = (name: string, inputSchema: Record<string, unknown>): CatalogTool => ({
  server: "up",
  name,
  qualifiedName: `up.${name}`,
  inputSchema: { type: "object", ...inputSchema },
});

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
}

describe("allow/deny globs", () => {
  it("match like before: * spans anything, dots included; no star means equal", () => {
    const cases: Array<[string, string, boolean]> = [
      ["github.*", "github.create_issue", true],
      ["github.*", "gitlab.create_issue", false],
      ["*.delete_*", "github.delete_repo", true],
      ["*.delete_*", "github.undelete", false],
      ["demo.list_tickets", "demo.list_tickets", true],
      ["demo.list_tickets", "demo.list_tickets2", false],
      ["*", "anything.at.all", true],
      ["a*b*c", "abc", true],
      ["a*b*c", "axxbyyc", true],
      ["a*b*c", "acb", false],
      ["ab*b", "ab", false],
      ["ab*b", "abb", true],
      ["*x*x*", "xx", true],
      ["*x*x*", "x", false],
      ["a.b", "aXb", false],
    ];
    for (const [glob, name, expected] of cases)
      expect(globMatcher(glob)(name), `${glob} ~ ${name}`).toBe(expected);
  });

  it("answer at once for a glob of many stars (a backtracking regex never finished)", () => {
    const glob = `${"*".repeat(30)}x`;
    const name = "a".repeat(60);
    const { value, ms } = timed(() => toolPolicy(undefined, [glob])(name));
    expect(value).toBe(true);
    expect(ms).toBeLessThan(HANG_GUARD_MS);
    const many = `${"*a".repeat(95)}*x`;
    expect(timed(() => globMatcher(many)("a".repeat(200))).value).toBe(false);
  });

  it("are refused by the admin API when they hold spaces or control characters", () => {
    const parsed = TeamInput.safeParse({ deny: ["demo. x"] });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(/printable ASCII/);
  });
});

describe("argument validation against upstream schemas", () => {
  it("does not run a schema's catastrophic pattern (the upstream still checks it)", () => {
    const t = tool("evil", { properties: { s: { type: "string", pattern: "^(a+)+$" } } });
    const { value, ms } = timed(() => argumentErrors(t, { s: `${"a".repeat(40)}!` }));
    expect(value).toEqual([]);
    expect(ms).toBeLessThan(HANG_GUARD_MS);
  });

  it("still catches types, required properties, enums and ranges", () => {
    const t = tool("typed", {
      properties: {
        n: { type: "integer", minimum: 1 },
        e: { enum: ["a", "b"] },
        format: { type: "string", format: "email" },
      },
      required: ["n", "format"],
    });
    const problems = argumentErrors(t, { n: 0, e: "c" });
    expect(problems.join("\n")).toMatch(/\/n/);
    expect(problems.join("\n")).toMatch(/\/e/);
    expect(problems.join("\n")).toMatch(/format/);
    expect(argumentErrors(t, { n: 1, format: "not an email: the upstream decides" })).toEqual([]);
  });

  it("keeps properties named like the dropped keywords and accepts names patternProperties allowed", () => {
    const schema = {
      type: "object",
      properties: { pattern: { type: "string" }, format: { type: "number" } },
      patternProperties: { "^x-": { type: "string" } },
      additionalProperties: false,
    };
    expect(boundedSchema(schema)).toEqual({
      type: "object",
      properties: { pattern: { type: "string" }, format: { type: "number" } },
    });
    const t = tool("named", schema);
    expect(argumentErrors(t, { pattern: "p", format: 1, "x-extra": "y" })).toEqual([]);
    expect(argumentErrors(t, { format: "not a number" })).toHaveLength(1);
  });

  it("does not compare every pair of a 20,000-item array for uniqueItems", () => {
    const t = tool("unique", {
      properties: { ids: { type: "array", items: { type: "object" }, uniqueItems: true } },
    });
    const ids = Array.from({ length: 20_000 }, (_, i) => ({ i }));
    const { value, ms } = timed(() => argumentErrors(t, { ids }));
    expect(value).toEqual([]);
    expect(ms).toBeLessThan(HANG_GUARD_MS);
  });

  it("bounds how deep a hostile schema is walked", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 500; i++) deep = { type: "object", properties: { a: deep } };
    expect(() => boundedSchema(deep)).not.toThrow();
  });
});

describe("close-match suggestions", () => {
  it("computes a banded distance that agrees with the full one where it matters", () => {
    const words = [
      "",
      "a",
      "ab",
      "ba",
      "abc",
      "acb",
      "kitten",
      "sitting",
      "create_issue",
      "craete_isue",
      "list",
      "lsit",
    ];
    for (const a of words)
      for (const b of words)
        for (const max of [0, 1, 2, 3, 20]) {
          const full = editDistance(a, b);
          expect(editDistance(a, b, max), `${a} / ${b} / ${max}`).toBe(Math.min(full, max + 1));
        }
  });

  it("answers quickly for a 120-character name against 5,000 tools", () => {
    const tools = Array.from({ length: 5_000 }, (_, i) => tool(`tool_${i}_${"x".repeat(i % 80)}`, {}));
    const { value, ms } = timed(() => closeMatches(`up.${"q".repeat(120)}`, tools));
    expect(value).toEqual([]);
    expect(ms).toBeLessThan(HANG_GUARD_MS);
    expect(closeMatches("up.tool_12_xxxxxxxxxxx", tools)).toContain("up.tool_12_xxxxxxxxxxxx");
  });
});
