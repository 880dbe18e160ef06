import type { Snippet } from "../snippet";

export default [
  {
    name: "async: Promise.all over simulated lookups",
    code: `const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
async function getCustomer(id: number) {
  await sleep(20 - id * 5);
  return { id, name: ["Zoë", "Øster", "Ñúñez"][id] };
}
const customers = await Promise.all([0, 1, 2].map(getCustomer));
return customers;`,
  },
  {
    name: "async: Promise.allSettled summary",
    code: `const tasks = [
  Promise.resolve({ id: 1 }),
  Promise.reject(new Error("timeout")),
  new Promise(r => setTimeout(() => r({ id: 3 }), 5)),
  Promise.reject("plain string"),
];
const results = await Promise.allSettled(tasks);
return results.map(r => (r.status === "fulfilled" ? { ok: r.value } : { failed: r.reason instanceof Error ? r.reason.message : r.reason }));`,
  },
  {
    name: "async: Promise.race with a timeout",
    code: `const slow = new Promise<string>(r => setTimeout(() => r("slow result"), 1500));
const timeout = new Promise<never>((_, rej) => setTimeout(() => rej(new Error("Timed out after 10ms")), 10));
try {
  return await Promise.race([slow, timeout]);
} catch (e: any) {
  return e.message;
}`,
  },
  {
    name: "async: Promise.any picks first success",
    code: `const mirror = (name: string, ms: number, ok: boolean) => new Promise<string>((res, rej) => setTimeout(() => (ok ? res(name) : rej(new Error(name + " failed"))), ms));
return await Promise.any([mirror("eu", 5, false), mirror("us", 15, true), mirror("ap", 25, true)]);`,
  },
  {
    name: "async: async generator with for await",
    code: `async function* pages(total: number, size: number) {
  for (let offset = 0; offset < total; offset += size) {
    await new Promise(r => setTimeout(r, 1));
    yield Array.from({ length: Math.min(size, total - offset) }, (_, i) => offset + i + 1);
  }
}
const all: number[] = [];
let pageCount = 0;
for await (const page of pages(11, 4)) { all.push(...page); pageCount++; }
return { pageCount, all };`,
  },
  {
    name: "async: retry with exponential backoff",
    code: `let attempts = 0;
async function flaky(): Promise<string> {
  attempts++;
  if (attempts < 3) throw new Error("HTTP 503 on attempt " + attempts);
  return "success after " + attempts;
}
async function retry<T>(fn: () => Promise<T>, retries = 5, base = 2): Promise<T> {
  for (let i = 0; ; i++) {
    try { return await fn(); }
    catch (e) {
      if (i >= retries) throw e;
      await new Promise(r => setTimeout(r, base * 2 ** i));
    }
  }
}
return { result: await retry(flaky), attempts };`,
  },
  {
    name: "async: concurrency-limited pool",
    code: `async function mapPool<T, R>(items: T[], limit: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0, active = 0, maxActive = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      active++; maxActive = Math.max(maxActive, active);
      results[i] = await fn(items[i]);
      active--;
    }
  }
  await Promise.all(Array.from({ length: limit }, worker));
  (results as any).maxActive = maxActive;
  return results;
}
const out = await mapPool([5, 1, 4, 2, 3, 6], 2, async (n) => { await new Promise(r => setTimeout(r, n * 2)); return n * 10; });
return { out: [...out], maxActive: (out as any).maxActive };`,
  },
  {
    name: "async: event loop ordering",
    code: `const order: string[] = [];
setTimeout(() => order.push("timeout"), 0);
Promise.resolve().then(() => order.push("then1")).then(() => order.push("then2"));
queueMicrotask(() => order.push("microtask"));
order.push("sync");
await new Promise(r => setTimeout(r, 5));
return order;`,
  },
  {
    name: "async: timers fire in delay order",
    code: `const order: number[] = [];
await Promise.all([15, 5, 10, 1].map(ms => new Promise<void>(r => setTimeout(() => { order.push(ms); r(); }, ms))));
return order;`,
  },
  {
    name: "async: sequential await in a loop",
    code: `const log: string[] = [];
const ids = ["a", "b", "c"];
for (const id of ids) {
  await new Promise(r => setTimeout(r, 2));
  log.push("fetched " + id);
}
const results = [];
for (const id of ids) results.push(await Promise.resolve(id.toUpperCase()));
return { log, results };`,
  },
  {
    name: "async: error handling in async functions",
    code: `async function getOrder(id: number) {
  if (id < 0) throw new RangeError("Invalid order id " + id);
  return { id, total: id * 10 };
}
const results = [];
for (const id of [1, -5, 3]) {
  try { results.push(await getOrder(id)); }
  catch (e: any) { results.push({ error: e.name, message: e.message }); }
}
return results;`,
  },
  {
    name: "async: timeout wrapper helper",
    code: `function withTimeout<T>(p: Promise<T>, ms: number, label: string): Promise<T> {
  let t: any;
  return Promise.race([p, new Promise<T>((_, rej) => { t = setTimeout(() => rej(new Error(label + " timed out after " + ms + "ms")), ms); })]).finally(() => clearTimeout(t));
}
const fast = withTimeout(new Promise(r => setTimeout(() => r("fast ok"), 2)), 30, "fast");
const slow = withTimeout(new Promise(r => setTimeout(() => r("slow ok"), 1500)), 10, "slow");
const settled = await Promise.allSettled([fast, slow]);
return settled.map(s => (s.status === "fulfilled" ? s.value : (s.reason as Error).message));`,
  },
  {
    name: "async: thenable objects are awaited",
    code: `const thenable = { then(resolve: (v: number) => void) { resolve(42); } };
const v = await thenable;
const fromResolve = await Promise.resolve(thenable);
return { v, fromResolve, isPromise: Promise.resolve(thenable) instanceof Promise };`,
  },
  {
    name: "async: batch processing with progress",
    code: `const items = Array.from({ length: 10 }, (_, i) => i + 1);
const progress: string[] = [];
const processed: number[] = [];
for (let i = 0; i < items.length; i += 4) {
  const batch = items.slice(i, i + 4);
  const res = await Promise.all(batch.map(async n => { await new Promise(r => setTimeout(r, 1)); return n * n; }));
  processed.push(...res);
  progress.push(Math.round((processed.length / items.length) * 100) + "%");
}
return { processed, progress };`,
  },
  {
    name: "async: promise chaining with then and catch",
    code: `const result = await Promise.resolve(5)
  .then(x => x * 2)
  .then(x => { if (x > 5) throw new Error("too big: " + x); return x; })
  .catch(e => "recovered from " + e.message)
  .finally(() => "ignored");
return result;`,
  },
  {
    name: "async: AbortController cancels work",
    code: `const controller = new AbortController();
const work = new Promise<string>((resolve, reject) => {
  const t = setTimeout(() => resolve("finished"), 1500);
  controller.signal.addEventListener("abort", () => { clearTimeout(t); reject(controller.signal.reason); });
});
setTimeout(() => controller.abort(new Error("User cancelled")), 5);
try { return await work; } catch (e: any) { return { aborted: controller.signal.aborted, message: e.message }; }`,
  },
  {
    name: "async: async reduce accumulating totals",
    code: `const prices: Record<string, number> = { A: 10, B: 25.5, C: 4.25 };
const lookup = async (sku: string) => { await new Promise(r => setTimeout(r, 1)); return prices[sku]; };
const cart = [{ sku: "A", qty: 2 }, { sku: "B", qty: 1 }, { sku: "C", qty: 4 }];
const total = await cart.reduce(async (accP, item) => (await accP) + (await lookup(item.sku)) * item.qty, Promise.resolve(0));
return total;`,
  },
  {
    name: "async: Symbol.asyncIterator on a custom source",
    code: `const source = {
  messages: ["hello", "from", "the", "queue"],
  async *[Symbol.asyncIterator]() {
    for (const m of this.messages) { await Promise.resolve(); yield m.toUpperCase(); }
  },
};
const got: string[] = [];
for await (const m of source) got.push(m);
return got.join(" ");`,
  },
  {
    name: "async: rejection marked handled then awaited later",
    code: `const failing = Promise.reject(new Error("late"));
failing.catch(() => {});
await new Promise(r => setTimeout(r, 1));
const msg = await failing.catch(e => e.message);
return msg;`,
  },
  {
    name: "async: deduplicating concurrent requests",
    code: `const inflight = new Map<string, Promise<string>>();
let calls = 0;
function load(key: string) {
  if (!inflight.has(key)) {
    calls++;
    inflight.set(key, new Promise<string>(r => setTimeout(() => r("value:" + key), 5)).finally(() => inflight.delete(key)));
  }
  return inflight.get(key)!;
}
const res = await Promise.all([load("a"), load("b"), load("a"), load("a")]);
return { res, calls, pending: inflight.size };`,
  },
  {
    name: "async: setInterval counting ticks",
    code: `let ticks = 0;
await new Promise<void>(resolve => {
  const id = setInterval(() => {
    ticks++;
    if (ticks === 3) { clearInterval(id); resolve(); }
  }, 5);
});
return ticks;`,
  },
  {
    name: "async: await non-promise values and nested async",
    code: `const a = await 5;
const b = await null;
const inner = async () => { const x = await (async () => "deep")(); return x + "!"; };
return { a, b, c: await inner(), d: await Promise.all([1, Promise.resolve(2), (async () => 3)()]) };`,
  },
] satisfies Snippet[];
