import { describe, expect, it } from "vitest";
import type { CatalogTool } from "../../shared/contract/tools";
import { argumentErrors } from "../../workers/gateway/bridge/validate";
import { closeMatches, editDistance } from "../../workers/gateway/discovery/close-matches";
import { globMatcher, toolPolicy } from "../../workers/gateway/teams/policy";
import { TeamInput } from "../../workers/gateway/teams/schema";
import { HANG_GUARD_MS } from "../helpers/hang-guard";

// Each attack below cost the old gateway seconds to forever in its shared isolate (or threw); the
// real assertion is that it now returns, with the right answer, within the hang guard.

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
}

/** A small deterministic PRNG, so the comparisons below test the same inputs on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

let toolCount = 0;
/** A tool with a name of its own, so each test builds its own validator. */
function tool(inputSchema: Record<string, unknown>, name = `t${toolCount++}`): CatalogTool {
  return { server: "up", name, qualifiedName: `up.${name}`, inputSchema };
}

describe("glob matcher", () => {
  it("matches dots literally, * anywhere, several stars, no star, empty segments", () => {
    const cases: Array<[string, string, boolean]> = [
      ["github.create_issue", "github.create_issue", true],
      ["github.create_issue", "github.create_issuex", false],
      ["github.create_issue", "githubXcreate_issue", false],
      ["*.list", "demo.list", true],
      ["*.list", "a.b.list", true],
      ["*.list", "list", false],
      ["demo.*", "demo.", true],
      ["demo.*", "demo.a.b", true],
      ["demo.*", "demo", false],
      ["demo.*_issue", "demo.create_issue", true],
      ["demo.*_issue", "demo.create_issues", false],
      ["*_*_*", "a_b_c", true],
      ["*_*_*", "a_b", false],
      ["**", "", true],
      ["*", "", true],
      ["a**b", "ab", true],
      ["a**b", "a.x.b", true],
      ["***a***", "bab", true],
      ["ab*ba", "aba", false],
      ["ab*ba", "abba", true],
      ["Demo.*", "demo.x", false],
    ];
    for (const [glob, name, expected] of cases)
      expect(globMatcher(glob)(name), `${glob} ~ ${name}`).toBe(expected);
  });

  it("agrees with the regex it replaced on 5,000 small random globs", () => {
    const next = random(7);
    const pick = (alphabet: string, max: number) =>
      Array.from(
        { length: Math.floor(next() * (max + 1)) },
        () => alphabet[Math.floor(next() * alphabet.length)],
      ).join("");
    for (let i = 0; i < 5_000; i++) {
      const glob = pick("ab.*", 6);
      const name = pick("ab.", 7);
      const old = new RegExp(`^${glob.replaceAll(".", "\\.").replaceAll("*", ".*")}$`);
      expect(globMatcher(glob)(name), `${glob} ~ ${name}`).toBe(old.test(name));
    }
  });

  it("answers a glob of 30 stars then x against a 60-character name (the old regex never returned)", () => {
    const name = "a".repeat(60);
    const { value, ms } = timed(() => ({
      denied: !toolPolicy(undefined, [`${"*".repeat(30)}x`])(name),
      allowed: toolPolicy([`${"*".repeat(30)}a`], undefined)(name),
      longest: globMatcher(`${"*".repeat(100)}x${"*".repeat(99)}`)(`${"a".repeat(199)}x`),
      longestMiss: globMatcher(`${"*a".repeat(99)}*x`)("a".repeat(200)),
    }));
    expect(value).toEqual({ denied: false, allowed: true, longest: true, longestMiss: false });
    expect(ms).toBeLessThan(HANG_GUARD_MS);
  });

  it("are 1 to 200 printable characters, refused with the field's path otherwise", () => {
    expect(TeamInput.safeParse({ deny: ["*".repeat(200)] }).success).toBe(true);
    for (const [bad, message] of [
      ["x".repeat(201), /1 to 200 characters/],
      ["", /1 to 200 characters/],
      ["demo.\u00e9", /printable ASCII/],
    ] as const) {
      const parsed = TeamInput.safeParse({ allow: ["demo.*", bad] });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(["allow", 1]);
      expect(parsed.error?.issues[0]?.message).toMatch(message);
    }
  });
});

describe("argument validation against hostile upstream schemas", () => {
  /** `allOf` of two refs to the next level, `levels` deep: 2^levels paths to the last one. */
  function fanOut(levels: number): Record<string, unknown> {
    const $defs: Record<string, unknown> = { [`d${levels}`]: { type: "number" } };
    for (let i = 0; i < levels; i++)
      $defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    return { $defs, $ref: "#/$defs/d0" };
  }

  it("answers a schema whose refs fan out 2^30 ways (the old check visited every path)", () => {
    const t = tool(fanOut(30));
    const { value, ms } = timed(() => [argumentErrors(t, 1), argumentErrors(t, "one")]);
    // Too big to inline: its refs accept anything and the upstream checks them.
    expect(value).toEqual([[], []]);
    expect(ms).toBeLessThan(HANG_GUARD_MS);
    expect(argumentErrors(tool(fanOut(6)), "one")).toEqual([
      '(arguments): Instance type "string" is invalid. Expected "number".',
    ]);
  });

  it("answers self-referencing and unresolvable refs instead of throwing", () => {
    expect(argumentErrors(tool({ $ref: "#" }), { a: 1 })).toEqual([]);
    expect(argumentErrors(tool({ allOf: [{ $ref: "#" }, { $ref: "#" }] }), { a: 1 })).toEqual([]);
    const t = tool({
      type: "object",
      properties: {
        remote: { $ref: "https://example.com/schema.json" },
        anchored: { $ref: "#thing" },
        dropped: { $ref: "#/patternProperties/%5Ex-" },
        n: { type: "integer" },
      },
      patternProperties: { "^x-": { type: "string" } },
    });
    expect(argumentErrors(t, { remote: 1, anchored: 2, dropped: 3, n: "x" })).toEqual([
      '/n: Instance type "string" is invalid. Expected "integer".',
    ]);
  });

  it("names what an object takes when it refuses a property: the same name in another case, else the list", () => {
    const t = tool({
      type: "object",
      properties: { groupBy: { type: "string" }, limit: { type: "number" } },
      additionalProperties: false,
    });
    expect(argumentErrors(t, { group_by: "status" })).toEqual([
      '/group_by: not a property here; the tool spells it "groupBy"',
    ]);
    expect(argumentErrors(t, { "odd/name~": 1 })).toEqual([
      "/odd~1name~0: not a property here; it takes groupBy, limit",
    ]);
    const nested = tool({
      type: "object",
      properties: { filter: { type: "object", properties: {}, additionalProperties: false } },
    });
    expect(argumentErrors(nested, { filter: { x: 1 } })).toEqual([
      "/filter/x: not a property here: this object takes none",
    ]);
  });

  it("follows a recursive schema a few levels and still finds errors there", () => {
    const t = tool({
      $defs: {
        node: {
          type: "object",
          properties: {
            name: { type: "string" },
            children: { type: "array", items: { $ref: "#/$defs/node" } },
          },
          required: ["name"],
        },
      },
      $ref: "#/$defs/node",
    });
    expect(argumentErrors(t, { name: "root", children: [{ name: "a", children: [{ name: "b" }] }] })).toEqual(
      [],
    );
    expect(argumentErrors(t, { name: "root", children: [{ name: 1 }, {}] })).toEqual([
      '/children/0/name: Instance type "number" is invalid. Expected "string".',
      '/children/1: Instance does not have required property "name".',
    ]);
  });

  it("checks draft-07 definitions through $ref, ignoring its siblings as that draft says", () => {
    const t = tool({
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: {
        Args: {
          type: "object",
          properties: {
            mode: { enum: ["fast", "slow"] },
            s: { type: "string", pattern: "^(a+)+$", format: "email" },
          },
          required: ["mode"],
        },
      },
      $ref: "#/definitions/Args",
      type: "string",
    });
    expect(argumentErrors(t, { mode: "fast", s: "whatever" })).toEqual([]);
    expect(argumentErrors(t, { mode: "warp" })).toEqual([
      '/mode: Instance does not match any of ["fast","slow"].',
    ]);
    expect(argumentErrors(t, { s: 5 })).toEqual([
      '(arguments): Instance does not have required property "mode".',
      '/s: Instance type "number" is invalid. Expected "string".',
    ]);
  });

  it("does not run a catastrophic pattern reached through a ref: 40 a's and a ! answer at once", () => {
    const t = tool({
      type: "object",
      $defs: { word: { type: "string", pattern: "^(a+)+$" } },
      properties: { s: { $ref: "#/$defs/word" } },
    });
    const { value, ms } = timed(() => argumentErrors(t, { s: `${"a".repeat(40)}!` }));
    expect(value).toEqual([]);
    expect(ms).toBeLessThan(HANG_GUARD_MS);
  });

  it("does not compare every pair of a 50,000-item array for uniqueItems", () => {
    const t = tool({ type: "array", items: { type: "array" }, uniqueItems: true });
    const items = Array.from({ length: 50_000 }, (_, i) => [i % 7]);
    const { value, ms } = timed(() => argumentErrors(t, items));
    expect(value).toEqual([]);
    expect(ms).toBeLessThan(HANG_GUARD_MS);
  });

  it("reports the first failure of 100,000 failing items (the old check threw, out of stack)", () => {
    const t = tool({ type: "object", properties: { a: { type: "array", items: { minimum: 0 } } } });
    const { value, ms } = timed(() => argumentErrors(t, { a: new Array(100_000).fill(-1) }));
    expect(value).toEqual(["/a/0: -1 is less than 0."]);
    expect(ms).toBeLessThan(HANG_GUARD_MS);
  });

  it("refuses arguments over 1,000,000 characters of JSON without checking them", () => {
    const t = tool({ type: "object", properties: { s: { type: "string" } } });
    expect(argumentErrors(t, { s: "a".repeat(999_000) })).toEqual([]);
    expect(argumentErrors(t, { s: "a".repeat(1_000_000) })).toEqual([
      "(arguments): 1000008 characters of JSON, over the gateway's limit of 1000000",
    ]);
  });

  it("leaves to the upstream a schema and arguments whose product is too much work", () => {
    const many = tool({ allOf: Array.from({ length: 2_000 }, () => ({ maxLength: 2 })) });
    const { value, ms } = timed(() => argumentErrors(many, "a".repeat(900_000)));
    expect(value).toEqual([]);
    expect(ms).toBeLessThan(HANG_GUARD_MS);
    expect(argumentErrors(many, "abc")).toEqual(["(arguments): String is too long (3 > 2)."]);
  });

  it("still catches types, required properties and enums, every failing path listed", () => {
    const t = tool({
      type: "object",
      properties: {
        limit: { type: "integer", minimum: 1, format: "int32" },
        state: { enum: ["open", "closed"] },
        labels: { type: "array", items: { type: "string", pattern: "^[a-z]+$" }, uniqueItems: true },
        owner: { type: "object", properties: { login: { type: "string" } }, required: ["login"] },
      },
      required: ["state"],
      additionalProperties: false,
    });
    expect(
      argumentErrors(t, { limit: 5, state: "open", labels: ["B!", "B!"], owner: { login: "x" } }),
    ).toEqual([]);
    expect(argumentErrors(t, { limit: 1.5, labels: [1], owner: {}, extra: true })).toEqual([
      '(arguments): Instance does not have required property "state".',
      '/limit: Instance type "number" is invalid. Expected "integer".',
      '/labels/0: Instance type "number" is invalid. Expected "string".',
      '/owner: Instance does not have required property "login".',
      "/extra: not a property here; it takes limit, state, labels, owner",
    ]);
  });
});

describe("close-match suggestions", () => {
  /** Optimal string alignment distance, the whole table: what the banded version must agree with. */
  function fullDistance(a: string, b: string): number {
    const d = Array.from({ length: a.length + 1 }, (_, i) =>
      Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
    );
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
          v = Math.min(v, d[i - 2]![j - 2]! + 1);
        d[i]![j] = v;
      }
    return d[a.length]![b.length]!;
  }

  it("computes the bounded distance exactly when within the bound, bound + 1 otherwise", () => {
    const next = random(11);
    const word = () =>
      Array.from({ length: Math.floor(next() * 14) }, () => "ab_c."[Math.floor(next() * 5)]).join("");
    for (let i = 0; i < 2_000; i++) {
      const [a, b, max] = [word(), word(), Math.floor(next() * 8)];
      const full = fullDistance(a, b);
      expect(editDistance(a, b, max), `${a} / ${b} / ${max}`).toBe(Math.min(full, max + 1));
      expect(editDistance(a, b)).toBe(full);
    }
  });

  it("answers a 120-character name made of what every tool name holds, against 5,000 tools", () => {
    const tools = Array.from({ length: 5_000 }, (_, i) => tool({}, `tool_${i}_${"x".repeat(i % 80)}`));
    const { value, ms } = timed(() => closeMatches(`up.${"x".repeat(120)}`, tools));
    // The name is cut to 64 characters, within 8 edits of these.
    expect(value).toEqual([
      `up.tool_53_${"x".repeat(53)}`,
      `up.tool_54_${"x".repeat(54)}`,
      `up.tool_55_${"x".repeat(55)}`,
    ]);
    expect(ms).toBeLessThan(HANG_GUARD_MS);
    // One edit from each; the same length first.
    expect(closeMatches("up.tool_7_xxxxxxxx", tools)).toEqual([
      "up.tool_8_xxxxxxxx",
      "up.tool_7_xxxxxxx",
      "up.tool_87_xxxxxxx",
    ]);
  });
});
