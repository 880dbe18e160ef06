import { describe, expect, it } from "vitest";
import type { PiiItem } from "../../shared/contract/session";
import { normalizePii } from "../../shared/privacy/normalize";
import { findTokens, piiToken, restoreTokens } from "../../shared/privacy/restore";
import { tokenizeResult } from "../../shared/privacy/result";
import { collectPii, replacePii, tokenizeValues } from "../../shared/privacy/tokenize";
import { expectLinearScan } from "../helpers/growth";

/** A toy vault: one token per kind and key, numbered per kind from 1. */
function vault() {
  const tokens = new Map<string, string>();
  const values = new Map<string, string>();
  const counts = new Map<string, number>();
  const tokenOf = (item: PiiItem): string => {
    const id = `${item.kind}:${item.key}`;
    let token = tokens.get(id);
    if (token === undefined) {
      const n = (counts.get(item.kind) ?? 0) + 1;
      counts.set(item.kind, n);
      token = piiToken(item.kind, n);
      tokens.set(id, token);
      values.set(token, item.value);
    }
    return token;
  };
  return { tokenOf, values };
}

const result = {
  customers: [
    {
      name: "Alice Smith",
      email: "alice@example.com",
      phone: "+1 (415) 555-0123",
      notes: "Prefers alice@example.com; card 4111 1111 1111 1111 on file since 2024-05-01",
      contacts: { "bob@example.com": { role: "billing", ip: "10.0.0.7" } },
    },
    { name: "Bob", email: "BOB@Example.com", orders: [12345678, "ORD-2024-000123"], total: 1299.99 },
  ],
  log: ["login from 10.0.0.7", "ok"],
};

describe("collectPii", () => {
  it("finds values in strings and keys at any depth, once each, in order of first sight", () => {
    expect(collectPii([result])).toEqual([
      { kind: "EMAIL", key: "alice@example.com", value: "alice@example.com" },
      { kind: "PHONE", key: "+14155550123", value: "+1 (415) 555-0123" },
      { kind: "CARD", key: "4111111111111111", value: "4111 1111 1111 1111" },
      { kind: "EMAIL", key: "bob@example.com", value: "bob@example.com" },
      { kind: "IP", key: "10.0.0.7", value: "10.0.0.7" },
    ]);
  });

  it("gives two spellings of one value one item", () => {
    const items = collectPii([
      "alice@example.com",
      "ALICE@Example.COM",
      "4111 1111 1111 1111",
      "4111-1111-1111-1111",
      "4111111111111111",
      "+44 (0)20 7946 0958",
      "+44 20 7946 0958",
      "2001:0DB8:0000:0000:0000:0000:0000:0001",
      "2001:db8::1",
      "de89 3704 0044 0532 0130 00 is not upper case; DE89370400440532013000 is",
      "DE89 3704 0044 0532 0130 00",
    ]);
    expect(items.map((i) => `${i.kind}:${i.key}`)).toEqual([
      "EMAIL:alice@example.com",
      "CARD:4111111111111111",
      "PHONE:+442079460958",
      "IP:2001:db8::1",
      "IBAN:DE89370400440532013000",
    ]);
  });

  it("does not scan JSON numbers, only strings", () => {
    expect(collectPii([4111111111111111, { n: 4155550123 }, [14155550123]])).toEqual([]);
    expect(collectPii(["4111111111111111"])).toHaveLength(1);
  });

  it("stops at the item limit", () => {
    const many = Array.from({ length: 50 }, (_, i) => `user${i}@example.com`);
    expect(collectPii(many, 10)).toHaveLength(10);
    expect(collectPii(many, 0)).toEqual([]);
  });
});

describe("normalizePii", () => {
  it("keys each kind by its normalized form", () => {
    expect(normalizePii("EMAIL", "Alice@Example.COM")).toBe("alice@example.com");
    expect(normalizePii("PHONE", "+1 (415) 555-0123")).toBe("+14155550123");
    expect(normalizePii("PHONE", "(415) 555-0123")).toBe("4155550123");
    expect(normalizePii("CARD", "4111-1111-1111-1111")).toBe("4111111111111111");
    expect(normalizePii("SSN", "123-45-6789")).toBe("123456789");
    expect(normalizePii("IBAN", "gb82 west 1234 5698 7654 32")).toBe("GB82WEST12345698765432");
    expect(normalizePii("IP", "10.0.0.1")).toBe("10.0.0.1");
    expect(normalizePii("IP", "FE80:0:0:0:0:0:0:1")).toBe("fe80::1");
    expect(normalizePii("IP", "2001:db8:0:0:1:0:0:1")).toBe("2001:db8::1:0:0:1");
    expect(normalizePii("IP", "::FFFF:c000:0280")).toBe("::ffff:192.0.2.128");
  });
});

describe("replacePii", () => {
  it("replaces values in strings and keys at any depth, inside longer strings, and copies", () => {
    const { tokenOf } = vault();
    const before = structuredClone(result);
    const out = replacePii(result, tokenOf);
    expect(out).toEqual({
      customers: [
        {
          name: "Alice Smith",
          email: "[EMAIL_1]",
          phone: "[PHONE_1]",
          notes: "Prefers [EMAIL_1]; card [CARD_1] on file since 2024-05-01",
          contacts: { "[EMAIL_2]": { role: "billing", ip: "[IP_1]" } },
        },
        { name: "Bob", email: "[EMAIL_2]", orders: [12345678, "ORD-2024-000123"], total: 1299.99 },
      ],
      log: ["login from [IP_1]", "ok"],
    });
    expect(result).toEqual(before);
  });

  it("is deterministic and keeps non-JSON leaves", () => {
    const { tokenOf } = vault();
    const input = ["a@example.com", null, true, 3, undefined, { x: "b@example.com" }];
    expect(replacePii(input, tokenOf)).toEqual(replacePii(input, tokenOf));
    expect(replacePii(input, tokenOf)).toEqual(["[EMAIL_1]", null, true, 3, undefined, { x: "[EMAIL_2]" }]);
    expect(replacePii("plain text", tokenOf)).toBe("plain text");
  });

  it("keeps a __proto__ key an own key", () => {
    const input = JSON.parse('{"__proto__": "a@example.com", "b": 1}') as Record<string, unknown>;
    const out = replacePii(input, vault().tokenOf) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toBe("[EMAIL_1]");
  });
});

describe("tokenizeValues", () => {
  it("collects, asks once for all tokens, and replaces", async () => {
    const calls: PiiItem[][] = [];
    const out = await tokenizeValues([result, ["x", "alice@example.com"], "no pii"], async (items) => {
      calls.push(items);
      return items.map((item, i) => piiToken(item.kind, i + 1));
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(5);
    expect(out[1]).toEqual(["x", "[EMAIL_1]"]);
    expect(out[2]).toBe("no pii");
    expect(JSON.stringify(out)).not.toMatch(/alice@|4111|555-0123|10\.0\.0\.7/);
  });

  it("does not call assign when there is nothing to tokenize", async () => {
    let called = false;
    const out = await tokenizeValues(["hello", { n: 1 }], async () => {
      called = true;
      return [];
    });
    expect(called).toBe(false);
    expect(out).toEqual(["hello", { n: 1 }]);
  });

  it("redacts a value the vault gave no token for", async () => {
    const out = await tokenizeValues(["a@example.com and b@example.com"], async (items) =>
      items.slice(0, 1).map(() => "[EMAIL_7]"),
    );
    expect(out).toEqual(["[EMAIL_7] and [EMAIL]"]);
  });
});

describe("tokenizeResult", () => {
  it("tokenizes the error's data as well as its message", async () => {
    const out = await tokenizeResult(
      {
        logs: [],
        error: { name: "Error", message: "Uncaught alice@example.com", data: { to: "alice@example.com" } },
        stats: { durationMs: 1, toolCalls: 0, truncated: false },
      },
      async (items) => items.map((item, i) => piiToken(item.kind, i + 1)),
    );
    expect(out.error).toEqual({ name: "Error", message: "Uncaught [EMAIL_1]", data: { to: "[EMAIL_1]" } });
  });
});

describe("findTokens and restoreTokens", () => {
  const tokenized = {
    to: "[EMAIL_1]",
    cc: ["[EMAIL_2]", "x [PHONE_1] y"],
    deep: { "[EMAIL_1]": { note: "call [PHONE_1] or [PHONE_9]; not a token: [EMAIL_0] [email_1] [IP_]" } },
  };
  const lookup = new Map([
    ["[EMAIL_1]", "alice@example.com"],
    ["[EMAIL_2]", "bob@example.com"],
    ["[PHONE_1]", "+1 (415) 555-0123"],
  ]);

  it("finds distinct tokens in strings and keys at any depth", () => {
    expect(findTokens(tokenized)).toEqual(["[EMAIL_1]", "[EMAIL_2]", "[PHONE_1]", "[PHONE_9]"]);
    expect(findTokens("[IBAN_123456789] [IBAN_1234567890]")).toEqual(["[IBAN_123456789]"]);
    expect(findTokens(42)).toEqual([]);
  });

  it("restores known tokens alone or inside longer strings, keys included, and keeps unknown ones", () => {
    expect(restoreTokens(tokenized, lookup)).toEqual({
      to: "alice@example.com",
      cc: ["bob@example.com", "x +1 (415) 555-0123 y"],
      deep: {
        "alice@example.com": {
          note: "call +1 (415) 555-0123 or [PHONE_9]; not a token: [EMAIL_0] [email_1] [IP_]",
        },
      },
    });
  });

  it("round-trips replace → restore (a value comes back as first spelled)", () => {
    const { tokenOf, values } = vault();
    const restored = restoreTokens(replacePii(result, tokenOf), values);
    expect(restored.customers[1]?.email).toBe("bob@example.com");
    expect({ ...restored, customers: [restored.customers[0]] }).toEqual({
      ...result,
      customers: [result.customers[0]],
    });
  });
});

describe("adversarial strings", () => {
  it.each(["[EMAIL_1", "[[[[", "[IBAN_123456789", "a@example.com "])(
    "text of %j is tokenized and restored in time linear in its length",
    (unit) => {
      const restore = new Map([["[EMAIL_1]", "x"]]);
      expectLinearScan(
        (chars) => unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars),
        (text) => {
          findTokens(text);
          restoreTokens(text, restore);
          replacePii(text, (item) => `[${item.kind}_1]`);
        },
      );
    },
  );
});

describe("deep input", () => {
  const DEPTH = 10_000;
  const deep = (leaf: unknown): unknown => {
    let value: unknown = leaf;
    for (let i = 0; i < DEPTH; i++) value = i % 2 === 0 ? [value] : { [`k${i}`]: value };
    return value;
  };

  it("walks 10,000 levels without a stack overflow", () => {
    const input = deep("mail a@example.com");
    expect(collectPii([input])).toEqual([{ kind: "EMAIL", key: "a@example.com", value: "a@example.com" }]);
    const replaced = replacePii(input, () => "[EMAIL_1]");
    expect(findTokens(replaced)).toEqual(["[EMAIL_1]"]);
    const restored = restoreTokens(replaced, new Map([["[EMAIL_1]", "a@example.com"]]));
    expect(collectPii([restored])).toHaveLength(1);
  });

  it("ends on cycles and keeps shared objects shared", () => {
    const shared = { email: "a@example.com" };
    const cyclic: Record<string, unknown> = { shared, again: shared };
    cyclic.self = cyclic;
    expect(collectPii([cyclic])).toHaveLength(1);
    const out = replacePii(cyclic, () => "[EMAIL_1]") as Record<string, unknown>;
    expect(out.self).toBe(out);
    expect(out.shared).toBe(out.again);
    expect(out.shared).toEqual({ email: "[EMAIL_1]" });
  });
});
