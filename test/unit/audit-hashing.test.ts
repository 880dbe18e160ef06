import { describe, expect, it } from "vitest";
import { canonicalJson, jsonBytes, sha256Hex } from "../../workers/gateway/audit";

describe("argument hashing", () => {
  it("hashes canonical JSON: sorted keys at every depth", async () => {
    expect(canonicalJson({ b: [1, { d: "x", c: null }], a: 2 })).toBe('{"a":2,"b":[1,{"c":null,"d":"x"}]}');
    expect(await sha256Hex({ b: [1, { d: "x", c: null }], a: 2 })).toBe(
      "41f07cb8ff3f7cef7a9c5149f898e296ff840cc7d3b3d92714818619fb45dc95",
    );
  });

  it("follows JSON for odd values and never throws", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(canonicalJson(cyclic)).toBe('{"a":1,"self":"[Circular]"}');
    expect(canonicalJson({ u: undefined, f: () => 1, n: Number.NaN, big: 10n, d: new Date(0) })).toBe(
      '{"big":"10","d":"1970-01-01T00:00:00.000Z","n":null}',
    );
    expect(canonicalJson([undefined, 1])).toBe("[null,1]");
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1}}');
  });

  it("sizes results as UTF-8 bytes of their JSON", () => {
    expect(jsonBytes(undefined)).toBe(0);
    expect(jsonBytes("é😀")).toBe(8);
    expect(jsonBytes({ a: [1, 2] })).toBe(11);
  });
});
