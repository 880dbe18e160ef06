// A polyfill group of the quickjs engine's prelude (prelude.js), evaluated the first time agent code
// reads `Intl`. Gets the prelude's `worker`, the global object, its `bytesOf` and `v8` (prelude.js
// "V8's answers"); returns the globals it defines.
// Intl: each object keeps its locales and options; what it answers is V8's, asked of the warm
// worker's own V8 (worker-v8.js), so formatting, plural rules, collation and segmentation are exactly
// the isolate engine's, and an invalid locale or option throws V8's own error.
(worker, _G, _bytesOf, v8) => {
  const { ask, locales: toLocales, specOf } = v8;
  const define = (target, name, value) =>
    Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
  const state = new WeakMap();
  const stateOf = (self, kind, method) => {
    const s = state.get(self);
    if (!s)
      throw new TypeError(
        `Method Intl.${kind}.prototype.${method} called on incompatible receiver ${typeof self}`,
      );
    return s;
  };
  const num = (x) => (typeof x === "bigint" || typeof x === "string" ? x : Number(x));
  const when = (x) => (x === undefined || x instanceof Date ? x : Number(x));
  const text = (x) => String(x);
  const list = (x) => (x === undefined ? [] : Array.from(x));
  /** How each method's arguments are coerced before they cross (V8 coerces the same way). */
  const ARGS = {
    NumberFormat: {
      format: [num],
      formatToParts: [num],
      formatRange: [num, num],
      formatRangeToParts: [num, num],
    },
    DateTimeFormat: {
      format: [when],
      formatToParts: [when],
      formatRange: [when, when],
      formatRangeToParts: [when, when],
    },
    PluralRules: { select: [Number], selectRange: [Number, Number] },
    Collator: { compare: [text, text] },
    RelativeTimeFormat: { format: [Number, text], formatToParts: [Number, text] },
    ListFormat: { format: [list], formatToParts: [list] },
    DisplayNames: { of: [text] },
    Segmenter: { segment: [text] },
    DurationFormat: { format: [(x) => x], formatToParts: [(x) => x] },
    Locale: {
      maximize: [],
      minimize: [],
      getCalendars: [],
      getCollations: [],
      getHourCycles: [],
      getNumberingSystems: [],
      getTimeZones: [],
      getTextInfo: [],
      getWeekInfo: [],
    },
  };
  /** `format` and `compare` are getters of a bound function in V8, so `list.map(nf.format)` works. */
  const BOUND = { NumberFormat: "format", DateTimeFormat: "format", Collator: "compare" };
  const options = (o) => (o === undefined ? undefined : o === null || typeof o !== "object" ? o : { ...o });
  const intl = {};

  const segments = (input, found) => {
    const at = (s) => ({ ...s, input });
    return {
      [Symbol.iterator]: () => found.map(at)[Symbol.iterator](),
      containing(index = 0) {
        const i = Math.trunc(Number(index)) || 0;
        const s = found.find((seg) => i >= seg.index && i < seg.index + seg.segment.length);
        return s ? at(s) : undefined;
      },
    };
  };

  for (const [kind, methods] of Object.entries(ARGS)) {
    const C = function (locales, opts) {
      if (!new.target) throw new TypeError(`Constructor Intl.${kind} requires 'new'`);
      const isLocale = kind === "Locale";
      const l = isLocale
        ? typeof locales === "object" && locales !== null
          ? String(locales)
          : locales
        : toLocales(locales);
      if (isLocale && typeof l !== "string")
        throw new TypeError("First argument to Intl.Locale constructor can't be empty or missing");
      const spec = specOf(l, opts);
      const resolved = ask({ op: "new", kind, spec });
      state.set(this, { spec, resolved });
    };
    Object.defineProperty(C, "name", { value: kind });
    const proto = C.prototype;
    define(proto, Symbol.toStringTag, `Intl.${kind}`);
    const call = (self, method, args) => {
      const s = stateOf(self, kind, method);
      const coerce = methods[method];
      const sent = coerce.map((f, i) => f(args[i]));
      // The calls made most often go on the worker's lean path (worker-v8.js LEAN_V8).
      if (kind === "Collator") return worker.collate(s.spec, sent[0], sent[1]);
      if (method === "format" && kind === "NumberFormat" && typeof sent[0] === "number")
        return worker.formatNumber(s.spec, sent[0]);
      if (method === "format" && kind === "DateTimeFormat" && sent[0] !== undefined)
        return worker.formatDate(s.spec, sent[0] instanceof Date ? sent[0].getTime() : sent[0]);
      const got = ask({ op: "call", kind, spec: s.spec, method, args: sent });
      if (kind === "Segmenter") return segments(sent[0], got);
      if (kind === "Locale" && (method === "maximize" || method === "minimize")) return new C(got);
      return got;
    };
    for (const method of Object.keys(methods)) {
      if (BOUND[kind] === method) {
        Object.defineProperty(proto, method, {
          configurable: true,
          get() {
            const s = stateOf(this, kind, method);
            s.bound ??=
              kind === "Collator"
                ? (a, b) => worker.collate(s.spec, String(a), String(b))
                : (...args) => call(this, method, args);
            return s.bound;
          },
        });
      } else
        define(
          proto,
          method,
          {
            [method](...args) {
              return call(this, method, args);
            },
          }[method],
        );
    }
    if (kind === "Locale") {
      // The fields a Locale shows are the worker's (worker-v8.js LOCALE_FIELDS).
      for (const field of ask({ op: "localeFields" }))
        Object.defineProperty(proto, field, {
          configurable: true,
          get() {
            return stateOf(this, kind, field).resolved[field];
          },
        });
      define(proto, "toString", function () {
        return stateOf(this, kind, "toString").resolved.toString;
      });
      define(proto, "toJSON", function toJSON() {
        return this.toString();
      });
    } else {
      define(proto, "resolvedOptions", function resolvedOptions() {
        return { ...stateOf(this, kind, "resolvedOptions").resolved };
      });
      define(C, "supportedLocalesOf", (locales, opts) =>
        ask({ op: "static", kind, method: "supportedLocalesOf", args: [toLocales(locales), options(opts)] }),
      );
    }
    // V8 lets the three oldest be called without `new`.
    const exposed = BOUND[kind] ? new Proxy(C, { apply: (_t, _self, args) => new C(...args) }) : C;
    define(proto, "constructor", exposed);
    define(intl, kind, exposed);
  }
  define(intl, "getCanonicalLocales", (locales) =>
    ask({ op: "static", kind: "", method: "getCanonicalLocales", args: [toLocales(locales)] }),
  );
  define(intl, "supportedValuesOf", (key) =>
    ask({ op: "static", kind: "", method: "supportedValuesOf", args: [String(key)] }),
  );
  define(intl, Symbol.toStringTag, "Intl");
  return { Intl: intl };
};
