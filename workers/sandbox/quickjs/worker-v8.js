// V8's own answers for what QuickJS lacks or computes differently (contract "Engine fidelity"): `Intl`,
// the `toLocale*` methods and `localeCompare`, Date's strings and parsing of free-form dates, and
// Math's transcendental functions (QuickJS's libm and V8's fdlibm differ in the last bit for a few
// percent of inputs). The warm worker is itself a V8 isolate: asking it gives exactly what the
// `isolate` engine gives, with no locale data shipped. prelude.js and polyfills/intl.js ask.
//
// Requests and answers cross as JSON text, with the values JSON cannot carry tagged: see `decode`.

/** Formatters made for earlier requests, by kind, locales and options: they hold no execution's data. */
const made = new Map();
const MADE_KEEP = 128;

/** The Intl constructors QuickJS code may make (those this V8 has). */
const KINDS = new Set(
  [
    "NumberFormat",
    "DateTimeFormat",
    "PluralRules",
    "Collator",
    "RelativeTimeFormat",
    "ListFormat",
    "DisplayNames",
    "Segmenter",
    "Locale",
    "DurationFormat",
  ].filter((kind) => typeof Intl[kind] === "function"),
);

/** Methods callable on an instance of each kind (besides `resolvedOptions`). */
const METHODS = {
  NumberFormat: ["format", "formatToParts", "formatRange", "formatRangeToParts"],
  DateTimeFormat: ["format", "formatToParts", "formatRange", "formatRangeToParts"],
  PluralRules: ["select", "selectRange"],
  Collator: ["compare"],
  RelativeTimeFormat: ["format", "formatToParts"],
  ListFormat: ["format", "formatToParts"],
  DisplayNames: ["of"],
  Segmenter: ["segment"],
  Locale: [
    "maximize",
    "minimize",
    "toString",
    "getCalendars",
    "getCollations",
    "getHourCycles",
    "getNumberingSystems",
    "getTimeZones",
    "getTextInfo",
    "getWeekInfo",
  ],
  DurationFormat: ["format", "formatToParts"],
};
const STATICS = new Set(["supportedLocalesOf", "getCanonicalLocales", "supportedValuesOf"]);

/**
 * Prototype methods answered here, by the type of `this` (numbers, dates and `localeCompare` go on
 * the lean path: LEAN_V8 below).
 */
const PROTO = {
  BigInt: new Set(["toLocaleString"]),
  String: new Set(["toLocaleUpperCase", "toLocaleLowerCase"]),
};
const TYPES = { BigInt, String };

const LOCALE_FIELDS = [
  "baseName",
  "calendar",
  "caseFirst",
  "collation",
  "hourCycle",
  "language",
  "numberingSystem",
  "numeric",
  "region",
  "script",
];

/** Tagged values: `{"\u0000": [type, text]}` for undefined, non-finite or negative-zero numbers, BigInts and Dates. */
const TAG = "\u0000";
function decode(text) {
  return JSON.parse(text, (_key, value) => {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, TAG)) return value;
    const [type, raw] = value[TAG];
    if (type === "u") return undefined;
    if (type === "n") return Number(raw);
    if (type === "b") return BigInt(raw);
    if (type === "d") return new Date(Number(raw));
    throw new TypeError(`unknown tag ${type}`);
  });
}
function encode(value) {
  return JSON.stringify(value, function (key) {
    const raw = this[key];
    if (raw === undefined) return { [TAG]: ["u", ""] };
    if (typeof raw === "number" && (!Number.isFinite(raw) || Object.is(raw, -0)))
      return { [TAG]: ["n", Object.is(raw, -0) ? "-0" : String(raw)] };
    if (typeof raw === "bigint") return { [TAG]: ["b", String(raw)] };
    return raw;
  });
}

/** `spec`: the locales and options as tagged JSON text (prelude.js `specOf`), "" for neither. */
function instance(kind, spec) {
  if (!KINDS.has(kind)) throw new TypeError(`Intl.${kind} is not a constructor`);
  const key = `${kind}\u0000${spec}`;
  let it = made.get(key);
  if (it) {
    made.delete(key);
  } else {
    const [locales, options] = spec === "" ? [] : decode(spec);
    it = new Intl[kind](locales, options);
    if (made.size >= MADE_KEEP) made.delete(made.keys().next().value);
  }
  made.set(key, it);
  return it;
}

/** What `new Intl[kind](…)` shows QuickJS code: its resolved options (a Locale's fields). */
function describeInstance(kind, it) {
  if (kind !== "Locale") return it.resolvedOptions();
  const fields = {};
  for (const name of LOCALE_FIELDS) fields[name] = it[name];
  fields.toString = it.toString();
  return fields;
}

/** A method's answer as plain data: a Segmenter's segments are listed (without their input). */
function plain(kind, method, answer) {
  if (kind === "Segmenter" && method === "segment")
    return Array.from(answer, ({ segment, index, isWordLike }) => ({ segment, index, isWordLike }));
  if (kind === "Locale" && (method === "maximize" || method === "minimize")) return answer.toString();
  return answer;
}

function answer(request) {
  const { op } = request;
  if (op === "new") return describeInstance(request.kind, instance(request.kind, request.spec));
  if (op === "call") {
    const { kind, method } = request;
    if (!METHODS[kind]?.includes(method) && method !== "resolvedOptions")
      throw new TypeError(`Intl.${kind}.prototype.${method} is not a function`);
    const it = instance(kind, request.spec);
    const args = request.args ?? [];
    if (kind === "Locale" && method.startsWith("get")) {
      // Newer V8 has them as getters (weekInfo, …) and older as methods.
      const name = method.slice(3, 4).toLowerCase() + method.slice(4);
      return typeof it[method] === "function" ? it[method]() : it[name];
    }
    return plain(kind, method, it[method](...args));
  }
  if (op === "static") {
    const { kind, method, args } = request;
    if (!STATICS.has(method)) throw new TypeError(`Intl.${method} is not a function`);
    const owner = kind ? (KINDS.has(kind) ? Intl[kind] : undefined) : Intl;
    if (typeof owner?.[method] !== "function")
      throw new TypeError(`Intl${kind ? `.${kind}` : ""}.${method} is not a function`);
    return owner[method](...(args ?? []));
  }
  if (op === "proto") {
    const { type, method, self, args } = request;
    if (!PROTO[type]?.has(method))
      throw new TypeError(`${type}.prototype.${method} is not supported on the quickjs engine`);
    return TYPES[type].prototype[method].call(self, ...(args ?? []));
  }
  if (op === "parseDate") return Date.parse(request.text);
  if (op === "localeFields") return LOCALE_FIELDS;
  if (op === "jsonError") {
    try {
      JSON.parse(request.text);
      return null;
    } catch (err) {
      return err instanceof Error ? err.message : null;
    }
  }
  if (op === "dateString") return Date();
  throw new TypeError(`unknown request ${op}`);
}

/** One request as JSON text → `{ ok }` or `{ error: { name, message } }` as JSON text (V8's own error, kept whole). */
export function answerV8(text) {
  try {
    return encode({ ok: answer(decode(text)) });
  } catch (err) {
    const name = err instanceof Error ? err.name : "Error";
    const message = err instanceof Error ? err.message : String(err);
    return JSON.stringify({ error: { name, message } });
  }
}

/** Math's functions whose last bit differs between QuickJS's libm and V8 (the exact ones stay QuickJS's). */
const V8_MATH = [
  "acos",
  "acosh",
  "asin",
  "asinh",
  "atan",
  "atanh",
  "atan2",
  "cbrt",
  "cos",
  "cosh",
  "exp",
  "expm1",
  "hypot",
  "log",
  "log1p",
  "log10",
  "log2",
  "pow",
  "sin",
  "sinh",
  "tan",
  "tanh",
];

const DATE_STRINGS = new Set([
  "toString",
  "toTimeString",
  "toLocaleString",
  "toLocaleDateString",
  "toLocaleTimeString",
]);

/**
 * The calls made most often, answered on the lean path (lean-calls.js): Math's functions as
 * `math_<name>`, a collator's compare, a number's and a date's formatting. Each takes a `spec`
 * (see `instance`) where it has locales and options.
 * @type {Record<string, import("./lean-calls.js").LeanFunction>}
 */
export const LEAN_V8 = {
  ...Object.fromEntries(
    V8_MATH.map((name) => {
      const f = Math[name];
      return [`math_${name}`, { args: name === "hypot" ? "*n" : "n".repeat(f.length), call: f }];
    }),
  ),
  collate: { args: "sss", call: (spec, a, b) => instance("Collator", spec).compare(a, b) },
  formatNumber: { args: "sn", call: (spec, x) => instance("NumberFormat", spec).format(x) },
  formatDate: { args: "sn", call: (spec, time) => instance("DateTimeFormat", spec).format(time) },
  dateString: {
    args: "ssn",
    call: (method, spec, time) => {
      if (!DATE_STRINGS.has(method))
        throw new TypeError(`Date.prototype.${method} is not supported on the quickjs engine`);
      const [locales, options] = spec === "" ? [] : decode(spec);
      return Date.prototype[method].call(new Date(time), locales, options);
    },
  },
};
