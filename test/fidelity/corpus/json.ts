import type { Snippet } from "../snippet";

export default [
  {
    name: "json: pretty print with two-space indent",
    code: `const ticket = { id: "T-1", status: "open", tags: ["billing", "urgent"], assignee: { name: "Zoë", email: "zoe@example.com" }, empty: {}, none: [] };
return JSON.stringify(ticket, null, 2);`,
  },
  {
    name: "json: replacer array picks fields",
    code: `const users = [{ id: 1, name: "Müller", password: "x", email: "m@ex.de" }, { id: 2, name: "Øster", password: "y", email: "o@ex.dk" }];
return JSON.stringify(users, ["id", "name"]);`,
  },
  {
    name: "json: replacer function redacts secrets",
    code: `const config = { apiKey: "sk-123", nested: { token: "abc", url: "https://x" }, retries: 3 };
return JSON.stringify(config, (key, value) => (/key|token/i.test(key) ? "[REDACTED]" : value));`,
  },
  {
    name: "json: reviver revives ISO dates",
    code: `const json = '{"id":7,"createdAt":"2026-01-02T10:00:00.000Z","meta":{"closedAt":"2026-01-05T12:30:00Z"},"note":"2026 plans"}';
const iso = /^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$/;
const obj = JSON.parse(json, (k, v) => (typeof v === "string" && iso.test(v) ? new Date(v) : v));
return { created: obj.createdAt instanceof Date, closed: obj.meta.closedAt.getUTCDate(), note: obj.note };`,
  },
  {
    name: "json: toJSON on a class",
    code: `class Money {
  constructor(public amount: number, public currency: string) {}
  toJSON() { return this.amount.toFixed(2) + " " + this.currency; }
}
return JSON.stringify({ total: new Money(1234.5, "EUR"), items: [new Money(1, "USD")] });`,
  },
  {
    name: "json: BigInt serialization error is caught",
    code: `const row = { id: 12345678901234567890n, name: "big" };
try {
  return JSON.stringify(row);
} catch (e) {
  return { error: (e as Error).name, message: (e as Error).message };
}`,
  },
  {
    name: "json: BigInt serialization with a replacer",
    code: `const row = { id: 12345678901234567890n, count: 3n, name: "big" };
return JSON.stringify(row, (_, v) => (typeof v === "bigint" ? v.toString() : v));`,
  },
  {
    name: "json: parse error message from bad input",
    code: `const raw = '{"status": "ok", "items": [1, 2,]}';
try {
  return JSON.parse(raw);
} catch (e) {
  return "Failed to parse tool output: " + (e as Error).message;
}`,
  },
  {
    name: "json: parse error on truncated input",
    code: `const inputs = ['{"a":1', "", "undefined", "{'a':1}", "[1,2", "NaN"];
return inputs.map(s => {
  try { JSON.parse(s); return "ok"; } catch (e) { return (e as Error).name + ": " + (e as Error).message; }
});`,
  },
  {
    name: "json: circular structure error",
    code: `const a: any = { name: "a" };
a.self = a;
try {
  return JSON.stringify(a);
} catch (e) {
  return { name: (e as Error).name, message: (e as Error).message };
}`,
  },
  {
    name: "json: stringify drops undefined, functions, symbols",
    code: `const obj = { a: undefined, b: () => 1, c: Symbol("s"), d: NaN, e: Infinity, f: null, g: [undefined, () => 1, Symbol("t")], h: -0, i: new Date(0) };
return JSON.stringify(obj);`,
  },
  {
    name: "json: Map and Set stringify to empty objects",
    code: `const data = { map: new Map([["a", 1]]), set: new Set([1, 2]), re: /x/g, err: new Error("boom") };
return { plain: JSON.stringify(data), fixed: JSON.stringify({ map: Object.fromEntries(data.map), set: [...data.set] }) };`,
  },
  {
    name: "json: unicode and escapes in output",
    code: `const s = { name: "Zoë \\"Z\\" Ångström", path: "C:\\\\tmp", line: "a\\nb", tab: "\\t", emoji: "😀", ctrl: "\\u0001", ls: "\\u2028" };
return JSON.stringify(s);`,
  },
  {
    name: "json: lone surrogates are escaped",
    code: `return { lone: JSON.stringify("\\uD83D"), pair: JSON.stringify("\\uD83D\\uDE00"), low: JSON.stringify("x\\uDC00y") };`,
  },
  {
    name: "json: large numbers lose precision",
    code: `const parsed = JSON.parse('{"id": 12345678901234567890, "small": 1.0, "exp": 1e400, "neg": -0}');
return { id: parsed.id, idStr: String(parsed.id), small: parsed.small, exp: String(parsed.exp), negIsNegZero: Object.is(parsed.neg, -0) };`,
  },
  {
    name: "json: tab and string indent",
    code: `const o = { a: [1, { b: 2 }] };
return { tab: JSON.stringify(o, null, "\\t"), custom: JSON.stringify(o, null, "--"), big: JSON.stringify(o, null, 20).split("\\n")[1].length };`,
  },
  {
    name: "json: deep clone via JSON",
    code: `const original = { when: new Date("2026-01-02T10:00:00Z"), tags: ["a"], nested: { n: 1, u: undefined } };
const copy = JSON.parse(JSON.stringify(original));
copy.tags.push("b");
return { originalTags: original.tags, copyWhenType: typeof copy.when, keys: Object.keys(copy.nested) };`,
  },
  {
    name: "json: stable output with sorted keys",
    code: `function sortKeys(v: any): any {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map(k => [k, sortKeys(v[k])]));
  return v;
}
const a = { z: 1, a: { y: 2, b: [{ d: 1, c: 2 }] }, m: null };
return JSON.stringify(sortKeys(a));`,
  },
  {
    name: "json: stringify primitives and top-level undefined",
    code: `return {
  undef: String(JSON.stringify(undefined)),
  fn: String(JSON.stringify(() => 1)),
  str: JSON.stringify("hi"),
  num: JSON.stringify(1e21),
  bool: JSON.stringify(true),
  nul: JSON.stringify(null),
  date: JSON.stringify(new Date(Date.UTC(2026, 0, 2))),
};`,
  },
  {
    name: "json: parse __proto__ key",
    code: `const o = JSON.parse('{"__proto__": {"admin": true}, "name": "x"}');
return { ownKeys: Object.keys(o), admin: (o as any).admin ?? null, protoIsObject: Object.getPrototypeOf(o) === Object.prototype };`,
  },
  {
    name: "json: reviver that deletes and transforms",
    code: `const json = '{"a": 1, "b": "2", "secret": "s", "list": [1, "3", {"c": "4"}]}';
const order: string[] = [];
const out = JSON.parse(json, function (k, v) {
  order.push(k);
  if (k === "secret") return undefined;
  return typeof v === "string" && /^\\d+$/.test(v) ? Number(v) : v;
});
return { out, order };`,
  },
  {
    name: "json: parse JSON lines output",
    code: `const jsonl = '{"id":1,"ok":true}\\n{"id":2,"ok":false}\\n\\n{"id":3,"ok":true}\\nnot json';
const rows = [];
const errors = [];
for (const [i, line] of jsonl.split("\\n").entries()) {
  if (!line.trim()) continue;
  try { rows.push(JSON.parse(line)); } catch { errors.push(i + 1); }
}
return { rows, errors };`,
  },
  {
    name: "json: toJSON receives the key",
    code: `const item = { toJSON(key: string) { return "key:" + key; } };
return JSON.stringify({ first: item, list: [item] });`,
  },
] satisfies Snippet[];
