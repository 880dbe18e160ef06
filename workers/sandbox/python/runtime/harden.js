// Makes what the interpreters of a warm worker share read-only before any agent code runs. Each
// execution has its own CPython instance (own linear memory), but all of them live in this isolate's
// one JavaScript realm, which Python reaches through `js`, `pyodide_js` and any JS object's
// `constructor`. Freezing everything reachable from the roots (globals, intrinsics, pyodide's
// module-level objects) leaves no shared place to write to, as SES's lockdown does. Two of its
// "override" fixes are needed: a data property of a frozen prototype (`constructor`, `toString`, …)
// would make `obj.constructor = x` throw on every object that inherits it, so it becomes an accessor
// that sets an own property on the receiver; and Emscripten writes `fn.sig` on the Math functions it
// imports each time it creates an instance, so `sig` keeps its value and ignores writes.
// Not frozen (they cannot be): typed arrays and ArrayBuffers, and the contents of Maps, Sets and
// WeakMaps; none of the shared ones is reachable from Python.

const OVERRIDABLE = new Set([
  "constructor",
  "name",
  "message",
  "toString",
  "toLocaleString",
  "valueOf",
  "toJSON",
  "then",
  "catch",
  "finally",
]);

/**
 * @param {unknown[]} roots
 * @returns {{ frozen: number, skipped: number }}
 */
export function harden(roots) {
  const seen = new Set();
  /** @type {object[]} */
  const order = [];
  const prototypes = new Set();
  const stack = [...roots, ...hiddenIntrinsics()];
  while (stack.length > 0) {
    const o = stack.pop();
    if (o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o)) continue;
    seen.add(o);
    if (ArrayBuffer.isView(o) || o instanceof ArrayBuffer) continue;
    order.push(o);
    const proto = Object.getPrototypeOf(o);
    if (proto) {
      prototypes.add(proto);
      stack.push(proto);
    }
    for (const key of Reflect.ownKeys(o)) {
      const d = Reflect.getOwnPropertyDescriptor(o, key);
      if (!d) continue;
      if ("value" in d) stack.push(d.value);
      else stack.push(d.get, d.set);
      if (key === "prototype" && typeof o === "function" && d.value && typeof d.value === "object") {
        prototypes.add(d.value);
      }
    }
  }
  let skipped = 0;
  for (const o of order) {
    for (const key of Reflect.ownKeys(o)) {
      const d = Reflect.getOwnPropertyDescriptor(o, key);
      if (!d || !("value" in d) || !d.configurable) continue;
      if (key === "sig" && typeof o === "function") keepValue(o, key, d);
      else if (prototypes.has(o) && typeof key === "string" && OVERRIDABLE.has(key)) overridable(o, key, d);
    }
    try {
      Object.freeze(o);
    } catch {
      skipped++;
    }
  }
  return { frozen: order.length - skipped, skipped };
}

/** Intrinsics no global property leads to: iterator, generator and async-function prototypes. */
function hiddenIntrinsics() {
  const generator = function* () {};
  const asyncGenerator = async function* () {};
  return [
    generator,
    asyncGenerator,
    async () => {},
    [][Symbol.iterator](),
    new Map().entries(),
    new Set().values(),
    ""[Symbol.iterator](),
    /x/[Symbol.matchAll]("x"),
  ];
}

/**
 * @param {object} o
 * @param {PropertyKey} key
 * @param {PropertyDescriptor} d
 */
function keepValue(o, key, d) {
  const value = d.value;
  Object.defineProperty(o, key, {
    get: () => value,
    set: () => {},
    enumerable: d.enumerable,
    configurable: false,
  });
}

/**
 * @param {object} o
 * @param {string} key
 * @param {PropertyDescriptor} d
 */
function overridable(o, key, d) {
  const value = d.value;
  Object.defineProperty(o, key, {
    get: () => value,
    set(/** @type {unknown} */ next) {
      if (this === o) throw new TypeError(`Cannot assign to read only property '${key}'`);
      Object.defineProperty(this, key, { value: next, writable: true, enumerable: true, configurable: true });
    },
    enumerable: d.enumerable,
    configurable: false,
  });
}
