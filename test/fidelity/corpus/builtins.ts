import type { Snippet } from "../snippet";

export default [
  {
    name: "builtins: Object.groupBy tickets by status",
    code: `const tickets = [
  { id: "T1", status: "open", priority: 2 },
  { id: "T2", status: "closed", priority: 1 },
  { id: "T3", status: "open", priority: 3 },
  { id: "T4", status: "pending", priority: 1 },
];
const grouped = Object.groupBy(tickets, t => t.status);
return { keys: Object.keys(grouped), open: grouped.open?.map(t => t.id), proto: Object.getPrototypeOf(grouped) === null };`,
  },
  {
    name: "builtins: Map.groupBy by priority band",
    code: `const items = [5, 12, 3, 27, 18, 9];
const m = Map.groupBy(items, n => (n < 10 ? "low" : n < 20 ? "mid" : "high"));
return [...m.entries()];`,
  },
  {
    name: "builtins: toSorted, toReversed do not mutate",
    code: `const scores = [42, 7, 19, 100, 3];
const sorted = scores.toSorted((a, b) => a - b);
const reversed = scores.toReversed();
return { scores, sorted, reversed, defaultSorted: scores.toSorted() };`,
  },
  {
    name: "builtins: toSpliced and with",
    code: `const steps = ["draft", "review", "approve", "publish"];
return {
  inserted: steps.toSpliced(2, 0, "legal"),
  removed: steps.toSpliced(1, 1),
  replaced: steps.with(-1, "archive"),
  original: steps,
};`,
  },
  {
    name: "builtins: with out of range throws",
    code: `try {
  return [1, 2, 3].with(5, 0);
} catch (e: any) {
  return { name: e.name };
}`,
  },
  {
    name: "builtins: findLast and findLastIndex",
    code: `const events = [
  { type: "login", at: 1 }, { type: "purchase", at: 2 }, { type: "login", at: 3 }, { type: "logout", at: 4 },
];
return { lastLogin: events.findLast(e => e.type === "login"), idx: events.findLastIndex(e => e.type === "purchase"), none: events.findLast(e => e.type === "x") ?? null };`,
  },
  {
    name: "builtins: Array.prototype.at and String at",
    code: `const arr = ["first", "middle", "last"];
return { last: arr.at(-1), first: arr.at(0), outOfRange: arr.at(10) ?? null, strLast: "Zoë".at(-1), frac: arr.at(1.7) };`,
  },
  {
    name: "builtins: structuredClone of dates and maps",
    code: `const original = { when: new Date("2026-01-02T10:00:00Z"), tags: new Set(["a", "b"]), map: new Map([["k", { n: 1 }]]), nested: { arr: [1, [2]] } };
const copy = structuredClone(original);
copy.nested.arr.push(3);
return {
  isDate: copy.when instanceof Date,
  iso: copy.when.toISOString(),
  tags: [...copy.tags],
  mapVal: copy.map.get("k"),
  originalArr: original.nested.arr,
  distinct: copy.map.get("k") !== original.map.get("k"),
};`,
  },
  {
    name: "builtins: structuredClone keeps cycles",
    code: `const node: any = { name: "root", children: [] };
node.children.push({ name: "child", parent: node });
const copy = structuredClone(node);
return { same: copy.children[0].parent === copy, notOriginal: copy !== node };`,
  },
  {
    name: "builtins: Set union, intersection, difference",
    code: `const a = new Set(["zoe", "oster", "nunez", "muller"]);
const b = new Set(["muller", "celik", "zoe"]);
return {
  union: [...a.union(b)],
  intersection: [...a.intersection(b)],
  difference: [...a.difference(b)],
  symmetric: [...a.symmetricDifference(b)],
  subset: new Set(["zoe"]).isSubsetOf(a),
  superset: a.isSupersetOf(b),
  disjoint: a.isDisjointFrom(new Set(["x"])),
};`,
  },
  {
    name: "builtins: Promise.withResolvers",
    code: `const { promise, resolve } = Promise.withResolvers<string>();
setTimeout(() => resolve("resolved later"), 5);
return await promise;`,
  },
  {
    name: "builtins: Array.fromAsync over an async generator",
    code: `async function* ids() { for (let i = 1; i <= 4; i++) { await Promise.resolve(); yield "id-" + i; } }
const all = await Array.fromAsync(ids());
const mapped = await Array.fromAsync([Promise.resolve(1), 2, Promise.resolve(3)], x => x * 10);
return { all, mapped };`,
  },
  {
    name: "builtins: iterator helpers map filter toArray",
    code: `const tickets = [{ id: 1, open: true }, { id: 2, open: false }, { id: 3, open: true }, { id: 4, open: true }];
return tickets.values().filter(t => t.open).map(t => "T-" + t.id).take(2).toArray();`,
  },
  {
    name: "builtins: iterator helpers on Map entries",
    code: `const stock = new Map([["apple", 3], ["pear", 0], ["plum", 12]]);
const inStock = stock.entries().filter(([, q]) => q > 0).map(([k]) => k).toArray();
const total = stock.values().reduce((a, b) => a + b, 0);
const some = stock.keys().some(k => k.startsWith("p"));
return { inStock, total, some };`,
  },
  {
    name: "builtins: Iterator.from and drop",
    code: `function* naturals() { let n = 1; while (true) yield n++; }
return (globalThis as any).Iterator ? (Iterator as any).from(naturals()).drop(3).filter((n: number) => n % 2 === 0).take(3).toArray() : "no Iterator global";`,
  },
  {
    name: "builtins: Object.hasOwn",
    code: `const obj = Object.create({ inherited: true });
obj.own = 1;
const nullProto = Object.create(null);
nullProto.x = 1;
return { own: Object.hasOwn(obj, "own"), inherited: Object.hasOwn(obj, "inherited"), inOp: "inherited" in obj, nullProto: Object.hasOwn(nullProto, "x") };`,
  },
  {
    name: "builtins: Error cause option",
    code: `const err = new Error("Import failed", { cause: { row: 17, reason: "bad date" } });
return { message: err.message, cause: err.cause, hasOwn: Object.hasOwn(err, "cause"), noCause: "cause" in new Error("x") };`,
  },
  {
    name: "builtins: String isWellFormed and toWellFormed",
    code: `const inputs = ["ok", "emoji 😀", "broken \\uD83D", "\\uDE00 reversed"];
return inputs.map(s => ({ ok: s.isWellFormed(), fixed: s.toWellFormed().length }));`,
  },
  {
    name: "builtins: replaceAll and matchAll",
    code: `const s = "a.b.c";
return { replaced: s.replaceAll(".", "/"), regex: s.replaceAll(/\\./g, "-"), matches: [..."x1y22z333".matchAll(/\\d+/g)].map(m => m[0]) };`,
  },
  {
    name: "builtins: Object.fromEntries and entries round trip",
    code: `const prices = { a: 1, b: 2, c: 3 };
const doubled = Object.fromEntries(Object.entries(prices).map(([k, v]) => [k, v * 2]));
return { doubled, fromMap: Object.fromEntries(new Map([["x", 1]])), fromArr: Object.fromEntries([["k", "v"], ["k", "w"]]) };`,
  },
  {
    name: "builtins: globalThis and feature detection",
    code: `return {
  hasGlobalThis: typeof globalThis === "object",
  structuredClone: typeof structuredClone,
  textEncoder: typeof TextEncoder,
  urlType: typeof URL,
  queueMicrotask: typeof queueMicrotask,
  atob: typeof atob,
  intl: typeof Intl,
  weakRef: typeof WeakRef,
};`,
  },
  {
    name: "builtins: Array.prototype.flat with depth and includes",
    code: `const nested = [["a", ["b"]], ["c"], [], [[["d"]]]];
return { one: nested.flat(), all: nested.flat(Infinity), has: nested.flat(Infinity).includes("d") };`,
  },
  {
    name: "builtins: logical assignment and nullish coalescing",
    code: `const config: Record<string, any> = { retries: 0, name: "", timeout: null };
config.retries ||= 3;
config.name ??= "default";
config.timeout ??= 5000;
config.debug &&= true;
let count = 0;
count ||= 10;
return { config, count };`,
  },
  {
    name: "builtins: numeric separators and exponent operator",
    code: `const budget = 1_000_000;
const rate = 0.05;
return { budget, growth: budget * (1 + rate) ** 3, bits: 2 ** 10, neg: (-2) ** 3, hex: 0xFF_FF, bin: 0b1010_1010 };`,
  },
  {
    name: "builtins: WeakRef and FinalizationRegistry exist",
    code: `const target = { name: "cache entry" };
const ref = new WeakRef(target);
const registry = new FinalizationRegistry(() => {});
registry.register(target, "token");
return { deref: ref.deref()?.name, registry: typeof registry.register };`,
  },
  {
    name: "builtins: Array.prototype.group availability",
    code: `return {
  groupBy: typeof Object.groupBy,
  mapGroupBy: typeof Map.groupBy,
  arrayGroup: typeof (Array.prototype as any).group,
  findLast: typeof Array.prototype.findLast,
  toSorted: typeof Array.prototype.toSorted,
  withResolvers: typeof (Promise as any).withResolvers,
  fromAsync: typeof (Array as any).fromAsync,
};`,
  },
  {
    name: "builtins: String.prototype.at and codePoint helpers",
    code: `const s = "Øster 😀";
return { at: s.at(-1), last2: [...s].at(-1), normalized: s.normalize("NFD").length, padded: s.padEnd(12, "·") };`,
  },
  {
    name: "builtins: Atomics and SharedArrayBuffer presence",
    code: `return { atomics: typeof Atomics, sab: typeof SharedArrayBuffer, add: (() => { const a = new Int32Array(4); Atomics.add(a, 0, 5); return Atomics.load(a, 0); })() };`,
  },
  {
    name: "builtins: class static blocks and private in",
    code: `class Registry {
  static #items = new Map<string, number>();
  static { Registry.#items.set("default", 1); }
  static has(obj: unknown) { return (typeof obj === "object" || typeof obj === "function") && obj !== null && #items in (obj as any); }
  static size() { return Registry.#items.size; }
}
return { size: Registry.size(), has: Registry.has(Registry) };`,
  },
  {
    name: "builtins: Array copyWithin, entries, and keys with at",
    code: `const arr = ["a", "b", "c", "d"];
return { pairs: [...arr.entries()].map(([i, v]) => v + i).toReversed(), lastKey: [...arr.keys()].at(-1) };`,
  },
] satisfies Snippet[];
