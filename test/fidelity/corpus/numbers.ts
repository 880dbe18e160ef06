import type { Snippet } from "../snippet";

export default [
  {
    name: "numbers: thousands separators for a revenue total",
    code: `const total = 1234567.891;
return total.toLocaleString("en-US");`,
  },
  {
    name: "numbers: default toLocaleString of a count",
    code: `const rows = 48213;
const revenue = 98765.4321;
return { rows: rows.toLocaleString(), revenue: revenue.toLocaleString() };`,
  },
  {
    name: "numbers: euro amount in de-DE",
    code: `const amount = 1234.5;
return new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }).format(amount);`,
  },
  {
    name: "numbers: fr-FR grouping and decimals",
    code: `const values = [1234.56, 987654.3, 0.5];
return values.map(v => v.toLocaleString("fr-FR", { minimumFractionDigits: 2 }));`,
  },
  {
    name: "numbers: yen has no minor units",
    code: `const price = 125000.75;
return price.toLocaleString("ja-JP", { style: "currency", currency: "JPY" });`,
  },
  {
    name: "numbers: en-IN lakh and crore grouping",
    code: `const amounts = [1500, 250000, 12345678.9];
return amounts.map(a => a.toLocaleString("en-IN", { style: "currency", currency: "INR" }));`,
  },
  {
    name: "numbers: Brazilian reais",
    code: `const orders = [{ id: "o1", total: 89.9 }, { id: "o2", total: 1520.35 }];
const fmt = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });
return orders.map(o => ({ id: o.id, total: fmt.format(o.total) }));`,
  },
  {
    name: "numbers: conversion rate as percent",
    code: `const visitors = 18342;
const signups = 1279;
const rate = signups / visitors;
return {
  raw: rate,
  pct: rate.toLocaleString("en-US", { style: "percent", maximumFractionDigits: 1 }),
  pctDe: new Intl.NumberFormat("de-DE", { style: "percent", minimumFractionDigits: 2 }).format(rate),
};`,
  },
  {
    name: "numbers: compact short notation for follower counts",
    code: `const counts = [950, 1200, 15300, 1250000, 3400000000];
const fmt = new Intl.NumberFormat("en-US", { notation: "compact" });
return counts.map(c => fmt.format(c));`,
  },
  {
    name: "numbers: compact long notation in several locales",
    code: `const n = 2_450_000;
return ["en-US", "de-DE", "ja-JP", "fr-FR"].map(loc =>
  new Intl.NumberFormat(loc, { notation: "compact", compactDisplay: "long" }).format(n)
);`,
  },
  {
    name: "numbers: unit style speed and temperature",
    code: `const speed = new Intl.NumberFormat("en-US", { style: "unit", unit: "kilometer-per-hour" }).format(87.5);
const temp = new Intl.NumberFormat("en-US", { style: "unit", unit: "celsius" }).format(21.4);
const long = new Intl.NumberFormat("en-GB", { style: "unit", unit: "mile", unitDisplay: "long" }).format(3);
return { speed, temp, long };`,
  },
  {
    name: "numbers: file sizes with unit megabyte",
    code: `const sizes = [0.5, 12, 1536];
return sizes.map(s => s.toLocaleString("en-US", { style: "unit", unit: "megabyte", unitDisplay: "narrow", maximumFractionDigits: 1 }));`,
  },
  {
    name: "numbers: always two decimals",
    code: `const prices = [5, 19.9, 100.456, 0.1 + 0.2];
return prices.map(p => p.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }));`,
  },
  {
    name: "numbers: formatToParts of a currency amount",
    code: `const parts = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).formatToParts(-1234.5);
return parts.map(p => ({ type: p.type, value: p.value }));`,
  },
  {
    name: "numbers: toFixed on prices",
    code: `const values = [1.005, 2.345, 10.235, 0.615, 1234.5678, 1e21];
return values.map(v => v.toFixed(2));`,
  },
  {
    name: "numbers: toPrecision and toExponential",
    code: `const x = 123456.789;
return {
  p3: x.toPrecision(3),
  p8: x.toPrecision(8),
  e2: x.toExponential(2),
  small: (0.000012345).toPrecision(2),
};`,
  },
  {
    name: "numbers: parse amounts from strings",
    code: `const raw = ["12.50 USD", "  42 ", "3,400", "1e3", "abc", "0x1F", ".5"];
return raw.map(r => ({ r, parseFloat: parseFloat(r), Number: Number(r), parseInt: parseInt(r, 10) }));`,
  },
  {
    name: "numbers: parseInt with radix",
    code: `return {
  hex: parseInt("ff", 16),
  bin: parseInt("101101", 2),
  b36: parseInt("zz", 36),
  noRadix: parseInt("0x10"),
  leading: parseInt("08"),
  str36: (123456789).toString(36),
  bin2: (255).toString(2),
};`,
  },
  {
    name: "numbers: signed deltas for a KPI report",
    code: `const deltas = [0.0523, -0.012, 0];
const fmt = new Intl.NumberFormat("en-US", { style: "percent", signDisplay: "exceptZero", maximumFractionDigits: 1 });
const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", signDisplay: "always" });
return { pct: deltas.map(d => fmt.format(d)), money: [120, -45.5, 0].map(m => money.format(m)) };`,
  },
  {
    name: "numbers: accounting currency sign",
    code: `const fmt = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", currencySign: "accounting" });
return [1500, -1500].map(v => fmt.format(v));`,
  },
  {
    name: "numbers: human readable bytes helper",
    code: `function formatBytes(bytes: number, decimals = 1): string {
  if (bytes === 0) return "0 B";
  const k = 1024;
  const units = ["B", "KB", "MB", "GB", "TB"];
  const i = Math.floor(Math.log(bytes) / Math.log(k));
  return parseFloat((bytes / Math.pow(k, i)).toFixed(decimals)) + " " + units[i];
}
return [0, 512, 2048, 1536000, 5368709120].map(b => formatBytes(b));`,
  },
  {
    name: "numbers: integer and safe-integer checks",
    code: `const ids = [42, 42.0, 42.5, 2 ** 53, 2 ** 53 - 1, -0, NaN];
return ids.map(n => ({ n: String(n), int: Number.isInteger(n), safe: Number.isSafeInteger(n) }));`,
  },
  {
    name: "numbers: BigInt totals for large ids",
    code: `const a = 9007199254740993n;
const b = 12345678901234567890n;
return { sum: (a + b).toString(), product: (a * 3n).toString(), asNumber: Number(a), hex: b.toString(16), locale: b.toLocaleString("en-US") };`,
  },
  {
    name: "numbers: scientific and engineering notation",
    code: `const n = 123456789;
return {
  sci: new Intl.NumberFormat("en-US", { notation: "scientific" }).format(n),
  eng: new Intl.NumberFormat("en-US", { notation: "engineering" }).format(n),
  sciSmall: new Intl.NumberFormat("en-US", { notation: "scientific", maximumFractionDigits: 2 }).format(0.000456),
};`,
  },
  {
    name: "numbers: currency display code and name",
    code: `const amount = 2500;
return {
  symbol: amount.toLocaleString("en-US", { style: "currency", currency: "EUR" }),
  code: amount.toLocaleString("en-US", { style: "currency", currency: "EUR", currencyDisplay: "code" }),
  name: amount.toLocaleString("en-US", { style: "currency", currency: "EUR", currencyDisplay: "name" }),
  gbp: amount.toLocaleString("en-GB", { style: "currency", currency: "GBP" }),
  chf: amount.toLocaleString("de-CH", { style: "currency", currency: "CHF" }),
};`,
  },
  {
    name: "numbers: significant digits",
    code: `const values = [0.0012345, 123.456, 98765.4];
return values.map(v => new Intl.NumberFormat("en-US", { maximumSignificantDigits: 3 }).format(v));`,
  },
  {
    name: "numbers: floating point comparison with epsilon",
    code: `const a = 0.1 + 0.2;
return {
  a,
  equalsNaive: a === 0.3,
  equalsEps: Math.abs(a - 0.3) < Number.EPSILON,
  maxSafe: Number.MAX_SAFE_INTEGER,
  minValue: Number.MIN_VALUE,
  str: String(a),
};`,
  },
  {
    name: "numbers: Spanish and Polish grouping of four-digit values",
    code: `const values = [1234, 12345, 1234567];
return {
  es: values.map(v => v.toLocaleString("es-ES")),
  pl: values.map(v => v.toLocaleString("pl-PL")),
  it: values.map(v => v.toLocaleString("it-IT")),
};`,
  },
  {
    name: "numbers: number to string edge outputs",
    code: `const values = [1e21, 1e-7, 123e-20, 0.000001, -0, 100, 2 ** 70, 1 / 3];
return values.map(v => String(v));`,
  },
  {
    name: "numbers: useGrouping false for ids",
    code: `const orderNo = 20260102;
return {
  grouped: orderNo.toLocaleString("en-US"),
  plain: orderNo.toLocaleString("en-US", { useGrouping: false }),
  padded: new Intl.NumberFormat("en-US", { minimumIntegerDigits: 10, useGrouping: false }).format(orderNo),
};`,
  },
  {
    name: "numbers: Arabic and Hindi digits",
    code: `const n = 1234567.89;
return {
  arEG: n.toLocaleString("ar-EG"),
  hiIN: n.toLocaleString("hi-IN"),
  latn: n.toLocaleString("ar-EG-u-nu-latn"),
};`,
  },
  {
    name: "numbers: rounding half values for display",
    code: `const values = [2.5, 3.5, -2.5, 1.45, 1.55];
return values.map(v => ({
  v,
  round: Math.round(v),
  fixed1: v.toFixed(1),
  intl0: new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 }).format(v),
  intl1: new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 }).format(v),
}));`,
  },
] satisfies Snippet[];
