import type { Snippet } from "../snippet";

export default [
  {
    name: "classes: getters and setters on an account",
    code: `class Account {
  private _balance = 0;
  constructor(public owner: string, public currency = "EUR") {}
  get balance() { return this._balance; }
  set balance(v: number) { if (v < 0) throw new RangeError("Balance cannot be negative"); this._balance = Math.round(v * 100) / 100; }
  get display() { return this.balance.toLocaleString("de-DE", { style: "currency", currency: this.currency }); }
}
const acc = new Account("Zoë");
acc.balance = 1234.567;
let error = null;
try { acc.balance = -1; } catch (e: any) { error = e.message; }
return { owner: acc.owner, balance: acc.balance, display: acc.display, error, keys: Object.keys(acc) };`,
  },
  {
    name: "classes: private fields and methods",
    code: `class Counter {
  #count = 0;
  static #instances = 0;
  constructor() { Counter.#instances++; }
  #bump(by: number) { this.#count += by; }
  inc(by = 1) { this.#bump(by); return this; }
  get value() { return this.#count; }
  static get instances() { return Counter.#instances; }
}
const a = new Counter().inc().inc(5);
new Counter();
return { value: a.value, instances: Counter.instances, json: JSON.stringify(a), keys: Object.keys(a), hasPrivate: "#count" in a };`,
  },
  {
    name: "classes: inheritance and super calls",
    code: `class Shape {
  constructor(public name: string) {}
  area() { return 0; }
  describe() { return this.name + " with area " + this.area().toFixed(2); }
}
class Circle extends Shape {
  constructor(public r: number) { super("circle"); }
  area() { return Math.PI * this.r ** 2; }
}
class Square extends Shape {
  constructor(public side: number) { super("square"); }
  area() { return this.side ** 2; }
  describe() { return super.describe().toUpperCase(); }
}
const shapes: Shape[] = [new Circle(1.5), new Square(3)];
return shapes.map(s => ({ text: s.describe(), ctor: s.constructor.name, isShape: s instanceof Shape }));`,
  },
  {
    name: "classes: generator method and Symbol.iterator",
    code: `class Range {
  constructor(private start: number, private end: number, private step = 1) {}
  *[Symbol.iterator]() { for (let i = this.start; i < this.end; i += this.step) yield i; }
}
const r = new Range(0, 10, 3);
return { spread: [...r], arrayFrom: Array.from(r, x => x * 2), sum: [...new Range(1, 5)].reduce((a, b) => a + b, 0) };`,
  },
  {
    name: "classes: generators with return values and send",
    code: `function* idGen(prefix: string) {
  let n = 1;
  while (true) {
    const reset: boolean | undefined = yield prefix + String(n++).padStart(3, "0");
    if (reset) n = 1;
  }
}
const g = idGen("INV-");
const ids = [g.next().value, g.next().value, g.next(true).value, g.next().value];
function* finite() { yield 1; yield 2; return "done"; }
const f = finite();
return { ids, steps: [f.next(), f.next(), f.next(), f.next()] };`,
  },
  {
    name: "classes: Proxy for validation and defaults",
    code: `const target: Record<string, unknown> = { name: "Zoë" };
const log: string[] = [];
const p = new Proxy(target, {
  get(t, k, r) { log.push("get " + String(k)); return Reflect.has(t, k) ? Reflect.get(t, k, r) : "(missing)"; },
  set(t, k, v) { if (k === "age" && typeof v !== "number") throw new TypeError("age must be a number"); return Reflect.set(t, k, v); },
});
p.age = 34;
let err = null;
try { p.age = "old"; } catch (e: any) { err = e.message; }
return { name: p.name, email: p.email, age: p.age, err, log, target };`,
  },
  {
    name: "classes: Reflect API utilities",
    code: `class User { constructor(public id: number, public email: string) {} greet() { return "hi " + this.email; } }
const u = Reflect.construct(User, [1, "zoe@example.com"]);
return {
  ownKeys: Reflect.ownKeys(u),
  has: Reflect.has(u, "greet"),
  greet: Reflect.apply(User.prototype.greet, u, []),
  defined: Reflect.defineProperty(u, "role", { value: "admin", enumerable: false }),
  keysAfter: Object.keys(u),
  role: (u as any).role,
  proto: Reflect.getPrototypeOf(u) === User.prototype,
};`,
  },
  {
    name: "classes: static factory and toString",
    code: `class Money {
  private constructor(readonly cents: number, readonly currency: string) {}
  static of(amount: number, currency = "USD") { return new Money(Math.round(amount * 100), currency); }
  add(o: Money) { if (o.currency !== this.currency) throw new Error("Currency mismatch: " + this.currency + " vs " + o.currency); return new Money(this.cents + o.cents, this.currency); }
  toString() { return (this.cents / 100).toFixed(2) + " " + this.currency; }
  [Symbol.toPrimitive](hint: string) { return hint === "number" ? this.cents / 100 : this.toString(); }
}
const total = Money.of(19.99).add(Money.of(0.01)).add(Money.of(5.5));
let err = null;
try { total.add(Money.of(1, "EUR")); } catch (e: any) { err = e.message; }
return { str: String(total), tmpl: \`Total: \${total}\`, num: +total, err };`,
  },
  {
    name: "classes: mixins",
    code: `type Ctor<T = {}> = new (...args: any[]) => T;
function Timestamped<B extends Ctor>(Base: B) { return class extends Base { createdAt = "2026-01-02T10:00:00Z"; }; }
function Tagged<B extends Ctor>(Base: B) { return class extends Base { tags: string[] = []; tag(t: string) { this.tags.push(t); return this; } }; }
class Ticket { constructor(public id: string) {} }
const Rich = Tagged(Timestamped(Ticket));
const t = new Rich("T-9").tag("vip").tag("eu");
return { t: { ...t }, isTicket: t instanceof Ticket };`,
  },
  {
    name: "classes: Symbol.toStringTag and instanceof customization",
    code: `class Invoice { get [Symbol.toStringTag]() { return "Invoice"; } }
class Even { static [Symbol.hasInstance](n: unknown) { return typeof n === "number" && n % 2 === 0; } }
return { tag: Object.prototype.toString.call(new Invoice()), str: String(new Invoice()), even4: (4 as any) instanceof Even, even3: (3 as any) instanceof Even };`,
  },
  {
    name: "classes: event emitter implementation",
    code: `class Emitter<E extends Record<string, unknown[]>> {
  private handlers = new Map<keyof E, Array<(...a: any[]) => void>>();
  on<K extends keyof E>(ev: K, fn: (...a: E[K]) => void) { (this.handlers.get(ev) ?? this.handlers.set(ev, []).get(ev)!).push(fn); return () => this.off(ev, fn); }
  off<K extends keyof E>(ev: K, fn: (...a: E[K]) => void) { this.handlers.set(ev, (this.handlers.get(ev) ?? []).filter(f => f !== fn)); }
  emit<K extends keyof E>(ev: K, ...args: E[K]) { (this.handlers.get(ev) ?? []).forEach(f => f(...args)); }
}
const em = new Emitter<{ order: [string, number]; done: [] }>();
const seen: string[] = [];
const unsub = em.on("order", (id, amt) => seen.push(id + ":" + amt));
em.on("done", () => seen.push("done"));
em.emit("order", "o1", 10);
unsub();
em.emit("order", "o2", 20);
em.emit("done");
return seen;`,
  },
  {
    name: "classes: class fields initialization order",
    code: `const log: string[] = [];
class Base {
  a = (log.push("Base field"), 1);
  constructor() { log.push("Base ctor, kind=" + (this as any).kind); }
}
class Child extends Base {
  kind = (log.push("Child field"), "child");
  constructor() { super(); log.push("Child ctor, kind=" + this.kind); }
}
new Child();
return log;`,
  },
  {
    name: "classes: accessors with Object.defineProperty and freeze",
    code: `"use strict";
const cfg = Object.freeze({ region: "eu-west-1", limits: { rps: 10 } });
let err = null;
try { (cfg as any).region = "us-east-1"; } catch (e: any) { err = e.name; }
cfg.limits.rps = 20;
const obj = {};
Object.defineProperty(obj, "secret", { value: 42, enumerable: false });
return { region: cfg.region, rps: cfg.limits.rps, err, frozen: Object.isFrozen(cfg), keys: Object.keys(obj), secret: (obj as any).secret };`,
  },
  {
    name: "classes: LRU cache class using Map",
    code: `class LRU<K, V> {
  private map = new Map<K, V>();
  constructor(private capacity: number) {}
  get(k: K) { if (!this.map.has(k)) return undefined; const v = this.map.get(k)!; this.map.delete(k); this.map.set(k, v); return v; }
  set(k: K, v: V) { this.map.delete(k); this.map.set(k, v); if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!); }
  keys() { return [...this.map.keys()]; }
}
const c = new LRU<string, number>(3);
c.set("a", 1); c.set("b", 2); c.set("c", 3); c.get("a"); c.set("d", 4);
return { keys: c.keys(), b: c.get("b") ?? null };`,
  },
  {
    name: "classes: abstract-like base and polymorphic JSON",
    code: `abstract class Notifier {
  abstract channel: string;
  abstract send(to: string, msg: string): string;
  toJSON() { return { channel: this.channel, type: this.constructor.name }; }
}
class EmailNotifier extends Notifier { channel = "email"; send(to: string, msg: string) { return "mail " + to + ": " + msg; } }
class SmsNotifier extends Notifier { channel = "sms"; send(to: string, msg: string) { return "sms " + to + ": " + msg.slice(0, 10); } }
const ns: Notifier[] = [new EmailNotifier(), new SmsNotifier()];
return { sent: ns.map(n => n.send("Zoë", "Your order has shipped")), json: JSON.stringify(ns) };`,
  },
  {
    name: "classes: iterator protocol by hand",
    code: `const paginated = {
  pages: [["a", "b"], ["c"], ["d", "e", "f"]],
  [Symbol.iterator]() {
    let p = 0, i = 0;
    const pages = this.pages;
    return {
      next(): IteratorResult<string> {
        while (p < pages.length && i >= pages[p].length) { p++; i = 0; }
        return p < pages.length ? { value: pages[p][i++], done: false } : { value: undefined, done: true };
      },
    };
  },
};
const [first, second, ...rest] = paginated;
return { first, second, rest, count: [...paginated].length };`,
  },
  {
    name: "classes: Proxy logging method calls",
    code: `const service = { total(xs: number[]) { return xs.reduce((a, b) => a + b, 0); }, name: "calc" };
const calls: string[] = [];
const traced = new Proxy(service, {
  get(t, k, r) {
    const v = Reflect.get(t, k, r);
    return typeof v === "function" ? (...args: unknown[]) => { calls.push(String(k) + "(" + JSON.stringify(args) + ")"); return v.apply(t, args); } : v;
  },
});
return { result: traced.total([1, 2, 3.5]), name: traced.name, calls };`,
  },
] satisfies Snippet[];
