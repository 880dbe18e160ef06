// Run by prelude.js in every interpreter, right after its own set-up (not on first use like the
// other polyfill groups): V8's answers where QuickJS has none or another (contract "Engine
// fidelity"). Locale-sensitive methods, Date's strings and free-form parsing, and Math's
// transcendental functions are asked of the warm worker's own V8 (worker-v8.js; the frequent ones on
// its lean path), and the errors of JSON, URI and Date built-ins carry V8's messages. Returns what
// the `intl` group and polyfills/v8-builtins.js need.
(worker, G, { define, lengthOf, tooLong, MAX_NATIVE_LENGTH }) => {
  const apply = Reflect.apply;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  // Values JSON cannot carry cross tagged (worker-v8.js `decode`).
  const TAG = "\u0000";
  const timeOf = Date.prototype.getTime;
  const ERRORS = { RangeError, TypeError, SyntaxError };
  const tagged = function (key, value) {
    const raw = this[key];
    if (raw === undefined) return { [TAG]: ["u", ""] };
    if (typeof raw === "number" && (!Number.isFinite(raw) || Object.is(raw, -0)))
      return { [TAG]: ["n", Object.is(raw, -0) ? "-0" : String(raw)] };
    if (typeof raw === "bigint") return { [TAG]: ["b", String(raw)] };
    if (raw instanceof Date) return { [TAG]: ["d", String(apply(timeOf, raw, []))] };
    return value;
  };
  const untag = (_key, value) => {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, TAG)) return value;
    const [type, raw] = value[TAG];
    return type === "n" ? Number(raw) : type === "b" ? BigInt(raw) : undefined;
  };
  const ask = (request) => {
    const out = parse(worker.v8(stringify(request, tagged)), untag);
    if (out.error) throw new (ERRORS[out.error.name] ?? Error)(out.error.message);
    return out.ok;
  };
  /** Locales as V8 takes them: a tag, a list of tags, or Intl.Locale objects (sent as their tags). */
  const toLocales = (locales) => {
    const one = (l) => (typeof l === "object" && l !== null ? String(l) : l);
    if (locales === undefined || typeof locales === "string") return locales;
    if (typeof locales === "object" && locales !== null && typeof locales[Symbol.iterator] === "function")
      return Array.from(locales, one);
    return one(locales);
  };
  /** Locales and options as the worker keys its formatters (worker-v8.js `instance`). */
  const specOf = (locales, options) =>
    locales === undefined && options === undefined
      ? ""
      : stringify(
          [toLocales(locales), options === null || typeof options !== "object" ? options : { ...options }],
          tagged,
        );
  const v8 = { ask, locales: toLocales, specOf, thisDate: (self) => thisDate(self) };
  const proto = (type, method, self, args) =>
    ask({ op: "proto", type, method, self, args: [toLocales(args[0]), ...args.slice(1)] });
  const numberOf = Number.prototype.valueOf;
  const bigintOf = BigInt.prototype.valueOf;
  define(
    Number.prototype,
    "toLocaleString",
    {
      toLocaleString(...args) {
        return worker.formatNumber(specOf(args[0], args[1]), apply(numberOf, this, []));
      },
    }.toLocaleString,
  );
  define(
    BigInt.prototype,
    "toLocaleString",
    {
      toLocaleString(...args) {
        return proto("BigInt", "toLocaleString", apply(bigintOf, this, []), args);
      },
    }.toLocaleString,
  );
  /** The time value of a Date (a TypeError for anything else). */
  const thisDate = (self) => apply(timeOf, self, []);
  for (const name of [
    "toString",
    "toTimeString",
    "toLocaleString",
    "toLocaleDateString",
    "toLocaleTimeString",
  ])
    define(
      Date.prototype,
      name,
      {
        [name](...args) {
          const spec = name.startsWith("toLocale") ? specOf(args[0], args[1]) : "";
          return worker.dateString(name, spec, thisDate(this));
        },
      }[name],
    );
  const thisString = (self, name) => {
    if (self === null || self === undefined)
      throw new TypeError(`String.prototype.${name} called on null or undefined`);
    return String(self);
  };
  define(String.prototype, "localeCompare", function localeCompare(that, ...args) {
    return worker.collate(specOf(args[0], args[1]), thisString(this, "localeCompare"), String(that));
  });
  for (const name of ["toLocaleUpperCase", "toLocaleLowerCase"])
    define(
      String.prototype,
      name,
      {
        [name](locales) {
          return proto("String", name, thisString(this, name), [locales]);
        },
      }[name],
    );
  const listToLocale = {
    toLocaleString(...args) {
      const n = lengthOf(this);
      if (n > MAX_NATIVE_LENGTH) throw tooLong("toLocaleString", n);
      const parts = [];
      for (let i = 0; i < n; i++) {
        const item = this[i];
        parts.push(item === null || item === undefined ? "" : String(item.toLocaleString(...args)));
      }
      return parts.join(",");
    },
  }.toLocaleString;
  define(Array.prototype, "toLocaleString", listToLocale);
  define(Object.getPrototypeOf(Uint8Array.prototype), "toLocaleString", listToLocale);
  // Date: free-form strings are parsed by V8's parser (QuickJS's takes other forms), in Date.parse,
  // new Date(string) and Date() called as a function.
  const NativeDate = Date;
  const parseDate = (text) => ask({ op: "parseDate", text: String(text) });
  const DateV8 = new Proxy(NativeDate, {
    construct(target, args, newTarget) {
      if (args.length === 1) {
        const v = args[0];
        const prim = typeof v === "object" && v !== null && !(v instanceof NativeDate) ? v.valueOf() : v;
        if (typeof prim === "string")
          return Reflect.construct(target, [parseDate(prim)], newTarget === DateV8 ? target : newTarget);
      }
      return Reflect.construct(target, args, newTarget === DateV8 ? target : newTarget);
    },
    apply: () => ask({ op: "dateString" }),
  });
  define(NativeDate, "parse", function parse(text) {
    return parseDate(text);
  });
  define(NativeDate.prototype, "constructor", DateV8);
  define(G, "Date", DateV8);
  for (const key of Object.keys(worker)) {
    if (!key.startsWith("math_")) continue;
    const f = worker[key];
    const name = key.slice(5);
    // +x as V8 does (a BigInt throws); the arity is the native's (Math.pow.length is 2).
    const made =
      name === "hypot"
        ? // `arguments` tells a missing value from undefined
          function hypot(_a, _b) {
            const values = [];
            // biome-ignore lint/complexity/noArguments: as above
            for (let i = 0; i < arguments.length; i++) values.push(+arguments[i]);
            return apply(f, undefined, values);
          }
        : Math[name].length === 2
          ? { [name]: (x, y) => f(+x, +y) }[name]
          : { [name]: (x) => f(+x) }[name];
    define(Math, name, made);
  }

  return v8;
};
