import type { Snippet } from "../snippet";

export default [
  {
    name: "collections: count words with a Map",
    code: `const words = "the cat and the hat and the bat".split(" ");
const counts = new Map<string, number>();
for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
return { entries: [...counts], size: counts.size, sorted: [...counts.entries()].sort((a, b) => b[1] - a[1]) };`,
  },
  {
    name: "collections: dedupe with Set",
    code: `const emails = ["a@x.com", "B@x.com", "a@x.com", "b@x.com", "c@y.org"];
return { exact: [...new Set(emails)], normalized: Array.from(new Set(emails.map(e => e.toLowerCase()))) };`,
  },
  {
    name: "collections: WeakMap cache for computed values",
    code: `const cache = new WeakMap<object, number>();
let computed = 0;
function score(o: { values: number[] }) {
  if (cache.has(o)) return cache.get(o)!;
  computed++;
  const s = o.values.reduce((a, b) => a + b, 0);
  cache.set(o, s);
  return s;
}
const a = { values: [1, 2, 3] }, b = { values: [10] };
return { results: [score(a), score(b), score(a), score(a)], computed };`,
  },
  {
    name: "collections: Map preserves insertion order",
    code: `const m = new Map<string | number, string>();
m.set("z", "last letter"); m.set(2, "two"); m.set("a", "first letter"); m.set(1, "one");
m.delete("z"); m.set("z", "re-added");
return { keys: [...m.keys()], obj: Object.keys({ z: 1, 2: 1, a: 1, 1: 1 }) };`,
  },
  {
    name: "collections: Map to and from objects",
    code: `const prices = { apple: 1.2, banana: 0.5, cherry: 4 };
const m = new Map(Object.entries(prices));
m.set("banana", 0.55);
return { back: Object.fromEntries(m), json: JSON.stringify([...m]) };`,
  },
  {
    name: "collections: stable sort by priority",
    code: `const tickets = [
  { id: 1, priority: "high" }, { id: 2, priority: "low" }, { id: 3, priority: "high" },
  { id: 4, priority: "medium" }, { id: 5, priority: "low" }, { id: 6, priority: "medium" },
  { id: 7, priority: "high" }, { id: 8, priority: "low" }, { id: 9, priority: "medium" },
  { id: 10, priority: "high" }, { id: 11, priority: "low" }, { id: 12, priority: "medium" },
];
const rank: Record<string, number> = { high: 0, medium: 1, low: 2 };
return tickets.sort((a, b) => rank[a.priority] - rank[b.priority]).map(t => t.id);`,
  },
  {
    name: "collections: Array.from with a mapper",
    code: `return {
  squares: Array.from({ length: 6 }, (_, i) => i * i),
  letters: Array.from("héllo", c => c.toUpperCase()),
  fromSet: Array.from(new Set([3, 1, 3, 2])),
  fromMap: Array.from(new Map([["a", 1]]).values()),
};`,
  },
  {
    name: "collections: flat and flatMap",
    code: `const orders = [{ id: 1, items: ["a", "b"] }, { id: 2, items: [] }, { id: 3, items: ["c"] }];
return {
  flatMap: orders.flatMap(o => o.items.map(i => o.id + ":" + i)),
  flat: [1, [2, [3, [4, [5]]]]].flat(2),
  flatInf: [1, [2, [3, [4, [5]]]]].flat(Infinity),
  holes: [1, , 3].flat(),
};`,
  },
  {
    name: "collections: reduce totals and max",
    code: `const orders = [{ customer: "Zoë", amount: 120.5 }, { customer: "Müller", amount: 89.99 }, { customer: "Zoë", amount: 15 }];
const total = orders.reduce((s, o) => s + o.amount, 0);
const biggest = orders.reduce((m, o) => (o.amount > m.amount ? o : m));
const byCustomer = orders.reduce<Record<string, number>>((acc, o) => { acc[o.customer] = (acc[o.customer] || 0) + o.amount; return acc; }, {});
return { total, biggest, byCustomer };`,
  },
  {
    name: "collections: chunk an array into batches",
    code: `const chunk = <T,>(arr: T[], size: number): T[][] => Array.from({ length: Math.ceil(arr.length / size) }, (_, i) => arr.slice(i * size, i * size + size));
const ids = Array.from({ length: 11 }, (_, i) => "id" + (i + 1));
return chunk(ids, 4);`,
  },
  {
    name: "collections: zip two arrays",
    code: `const names = ["Zoë", "Øster", "Ñúñez"];
const scores = [91, 78, 85, 100];
return names.map((n, i) => [n, scores[i]]);`,
  },
  {
    name: "collections: intersection and difference of id lists",
    code: `const before = ["u1", "u2", "u3", "u4"];
const after = ["u2", "u4", "u5"];
const a = new Set(before), b = new Set(after);
return { added: after.filter(x => !a.has(x)), removed: before.filter(x => !b.has(x)), kept: before.filter(x => b.has(x)) };`,
  },
  {
    name: "collections: Map with object keys",
    code: `const alice = { name: "Alice" }, bob = { name: "Bob" };
const roles = new Map<object, string[]>([[alice, ["admin"]], [bob, ["viewer"]]]);
roles.get(alice)!.push("billing");
return { alice: roles.get(alice), lookupByCopy: roles.get({ name: "Alice" }) ?? null, size: roles.size };`,
  },
  {
    name: "collections: default numeric sort pitfall",
    code: `const nums = [10, 9, 1, 100, 25, -3, 2];
return { defaultSort: [...nums].sort(), numeric: [...nums].sort((a, b) => a - b), desc: [...nums].sort((a, b) => b - a) };`,
  },
  {
    name: "collections: multi-key sort",
    code: `const people = [
  { name: "Zoë", dept: "eng", salary: 120 },
  { name: "Ana", dept: "ops", salary: 90 },
  { name: "Lukas", dept: "eng", salary: 120 },
  { name: "Emre", dept: "eng", salary: 140 },
  { name: "Bea", dept: "ops", salary: 95 },
];
return people.sort((a, b) => a.dept.localeCompare(b.dept) || b.salary - a.salary || a.name.localeCompare(b.name)).map(p => p.name);`,
  },
  {
    name: "collections: includes versus indexOf with NaN",
    code: `const arr = [1, NaN, 3, -0];
return { includesNaN: arr.includes(NaN), indexOfNaN: arr.indexOf(NaN), includesZero: arr.includes(0), indexOfZero: arr.indexOf(0), setHasNaN: new Set(arr).has(NaN) };`,
  },
  {
    name: "collections: fill and copyWithin",
    code: `const grid = Array(3).fill(null).map(() => Array(4).fill(0));
grid[1][2] = 5;
const shared = Array(2).fill([]);
shared[0].push("x");
return { grid, shared, copy: [1, 2, 3, 4, 5].copyWithin(0, 3) };`,
  },
  {
    name: "collections: sparse arrays and holes",
    code: `const a = [1, , 3];
const b = new Array(3);
return {
  length: a.length,
  keys: Object.keys(a),
  mapped: a.map(x => x * 2),
  mappedEmpty: b.map(() => 1),
  json: JSON.stringify(a),
  spread: [...b].map(x => x === undefined),
  inCheck: 1 in a,
};`,
  },
  {
    name: "collections: object key ordering with integer-like keys",
    code: `const o: Record<string, number> = {};
o["b"] = 1; o["10"] = 2; o["a"] = 3; o["2"] = 4; o["-1"] = 5; o["01"] = 6;
return { keys: Object.keys(o), json: JSON.stringify(o) };`,
  },
  {
    name: "collections: entries, keys, values iteration",
    code: `const arr = ["a", "b", "c"];
const out: string[] = [];
for (const [i, v] of arr.entries()) out.push(i + "=" + v);
const s = new Set(["x", "y"]);
return { out, setEntries: [...s.entries()], keys: [...arr.keys()], mapKeys: [...new Map([[1, "one"]]).keys()] };`,
  },
  {
    name: "collections: Set operations with objects",
    code: `const s = new Set<object>();
const a = { id: 1 };
s.add(a); s.add(a); s.add({ id: 1 });
const ids = new Set([1, 2, 3]);
ids.delete(2);
return { size: s.size, ids: [...ids], has: ids.has(3) };`,
  },
  {
    name: "collections: group by with reduce into Map",
    code: `const tickets = [
  { id: "T1", status: "open" }, { id: "T2", status: "closed" }, { id: "T3", status: "open" }, { id: "T4", status: "pending" },
];
const groups = tickets.reduce((m, t) => m.set(t.status, [...(m.get(t.status) ?? []), t.id]), new Map<string, string[]>());
return Object.fromEntries(groups);`,
  },
  {
    name: "collections: array destructuring and rest",
    code: `const [first, second = "n/a", ...rest] = ["Zoë", undefined, "Øster", "Ñúñez"];
const { a, ...others } = { a: 1, b: 2, c: 3 };
const [x, , z] = [1, 2, 3];
return { first, second, rest, a, others, x, z };`,
  },
  {
    name: "collections: find, some, every, findIndex",
    code: `const users = [{ id: 1, active: true, age: 31 }, { id: 2, active: false, age: 17 }, { id: 3, active: true, age: 45 }];
return {
  find: users.find(u => u.age > 40),
  findIndex: users.findIndex(u => !u.active),
  none: users.find(u => u.age > 100) ?? null,
  some: users.some(u => u.age < 18),
  every: users.every(u => u.id > 0),
};`,
  },
  {
    name: "collections: splice and slice on a queue",
    code: `const queue = ["j1", "j2", "j3", "j4", "j5"];
const removed = queue.splice(1, 2, "jX");
const head = queue.shift();
queue.unshift("j0");
queue.push("j6");
return { removed, head, queue, last2: queue.slice(-2), popped: queue.pop(), len: queue.length };`,
  },
  {
    name: "collections: sort with localeCompare inside objects and reverse",
    code: `const products = [{ name: "Éclair" }, { name: "apple pie" }, { name: "Brownie" }, { name: "cookie" }];
const asc = [...products].sort((a, b) => a.name.localeCompare(b.name)).map(p => p.name);
return { asc, desc: [...asc].reverse(), join: asc.join(", ") };`,
  },
  {
    name: "collections: Object.entries map filter fromEntries",
    code: `const inventory = { apples: 12, pears: 0, plums: 7, kiwis: 0, figs: 3 };
const inStock = Object.fromEntries(Object.entries(inventory).filter(([, qty]) => qty > 0).map(([k, v]) => [k.toUpperCase(), v * 2]));
return { inStock, values: Object.values(inventory), total: Object.values(inventory).reduce((a, b) => a + b) };`,
  },
] satisfies Snippet[];
