import type { Snippet } from "../snippet";

export default [
  {
    name: "intl: list of assignees with ListFormat",
    code: `const assignees = ["Zoë", "Ñúñez", "Müller"];
const lf = new Intl.ListFormat("en", { style: "long", type: "conjunction" });
return [lf.format(assignees), lf.format(assignees.slice(0, 2)), lf.format(["Øster"]), lf.format([])];`,
  },
  {
    name: "intl: disjunction list",
    code: `const options = ["email", "SMS", "push"];
return {
  en: new Intl.ListFormat("en", { type: "disjunction" }).format(options),
  de: new Intl.ListFormat("de", { type: "disjunction" }).format(options),
  fr: new Intl.ListFormat("fr", { type: "disjunction" }).format(options),
};`,
  },
  {
    name: "intl: list formats in several locales",
    code: `const items = ["A", "B", "C"];
return ["en-GB", "de", "es", "ja", "zh"].map(l => new Intl.ListFormat(l).format(items));`,
  },
  {
    name: "intl: unit style narrow list",
    code: `const parts = ["3 ft", "7 in"];
return {
  narrow: new Intl.ListFormat("en", { style: "narrow", type: "unit" }).format(parts),
  short: new Intl.ListFormat("en", { style: "short", type: "unit" }).format(parts),
  shortConj: new Intl.ListFormat("en", { style: "short" }).format(["a", "b", "c"]),
};`,
  },
  {
    name: "intl: pluralize item counts",
    code: `const pr = new Intl.PluralRules("en-US");
const words: Record<string, string> = { one: "item", other: "items" };
return [0, 1, 2, 1.5].map(n => n + " " + words[pr.select(n)]);`,
  },
  {
    name: "intl: ordinal suffixes",
    code: `const pr = new Intl.PluralRules("en-US", { type: "ordinal" });
const suffixes: Record<string, string> = { one: "st", two: "nd", few: "rd", other: "th" };
return [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(n => n + suffixes[pr.select(n)]);`,
  },
  {
    name: "intl: Polish and Arabic plural categories",
    code: `const pl = new Intl.PluralRules("pl");
const ar = new Intl.PluralRules("ar");
const ns = [0, 1, 2, 5, 12, 22, 101];
return { pl: ns.map(n => pl.select(n)), ar: ns.map(n => ar.select(n)), plCats: pl.resolvedOptions().pluralCategories };`,
  },
  {
    name: "intl: plural rules with fraction digits",
    code: `const pr = new Intl.PluralRules("en", { minimumFractionDigits: 1 });
return [1, 1.0, 2].map(n => pr.select(n));`,
  },
  {
    name: "intl: grapheme count of emoji",
    code: `const text = "👨‍👩‍👧‍👦🇯🇵é👍🏽";
const seg = new Intl.Segmenter("en", { granularity: "grapheme" });
const graphemes = [...seg.segment(text)].map(s => s.segment);
return { count: graphemes.length, graphemes, length: text.length };`,
  },
  {
    name: "intl: word segmentation",
    code: `const seg = new Intl.Segmenter("en", { granularity: "word" });
const text = "Zoë's order #123 shipped—finally!";
return [...seg.segment(text)].filter(s => s.isWordLike).map(s => s.segment);`,
  },
  {
    name: "intl: sentence segmentation",
    code: `const seg = new Intl.Segmenter("en", { granularity: "sentence" });
const text = "The export failed. Dr. Müller retried it! Did it work? Yes.";
return [...seg.segment(text)].map(s => s.segment.trim());`,
  },
  {
    name: "intl: Japanese word segmentation",
    code: `const seg = new Intl.Segmenter("ja", { granularity: "word" });
return [...seg.segment("今日は良い天気です")].map(s => s.segment);`,
  },
  {
    name: "intl: relative time numeric auto",
    code: `const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
return [rtf.format(-1, "day"), rtf.format(1, "day"), rtf.format(0, "day"), rtf.format(-3, "hour"), rtf.format(2, "week"), rtf.format(-1, "month"), rtf.format(1, "quarter")];`,
  },
  {
    name: "intl: relative time in German and Spanish",
    code: `const values: [number, Intl.RelativeTimeFormatUnit][] = [[-1, "day"], [-2, "day"], [5, "minute"], [-1, "year"]];
const de = new Intl.RelativeTimeFormat("de", { numeric: "auto" });
const es = new Intl.RelativeTimeFormat("es", { style: "short" });
return { de: values.map(([v, u]) => de.format(v, u)), es: values.map(([v, u]) => es.format(v, u)) };`,
  },
  {
    name: "intl: relative time formatToParts",
    code: `const rtf = new Intl.RelativeTimeFormat("en", { numeric: "always" });
return rtf.formatToParts(-1234.5, "second").map(p => ({ type: p.type, value: p.value }));`,
  },
  {
    name: "intl: display names for regions and languages",
    code: `const regions = new Intl.DisplayNames(["en"], { type: "region" });
const langs = new Intl.DisplayNames(["en"], { type: "language" });
return {
  regions: ["US", "DE", "JP", "BR", "CH"].map(r => regions.of(r)),
  langs: ["fr", "pt-BR", "zh-Hant", "es-419"].map(l => langs.of(l)),
};`,
  },
  {
    name: "intl: display names for currencies in German",
    code: `const dn = new Intl.DisplayNames(["de"], { type: "currency" });
return ["EUR", "USD", "JPY", "CHF"].map(c => dn.of(c));`,
  },
  {
    name: "intl: canonical locales",
    code: `return Intl.getCanonicalLocales(["EN-us", "de-de", "zh-hant-tw", "pt-br"]);`,
  },
  {
    name: "intl: Locale maximize and minimize",
    code: `const loc = new Intl.Locale("en");
const zh = new Intl.Locale("zh-TW");
return {
  max: loc.maximize().toString(),
  zhMax: zh.maximize().toString(),
  min: new Intl.Locale("en-Latn-US").minimize().toString(),
  lang: zh.language,
  region: zh.region,
};`,
  },
  {
    name: "intl: NumberFormat resolvedOptions",
    code: `const o = new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }).resolvedOptions();
return { locale: o.locale, numberingSystem: o.numberingSystem, style: o.style, currency: o.currency, minimumFractionDigits: o.minimumFractionDigits, maximumFractionDigits: o.maximumFractionDigits, useGrouping: o.useGrouping };`,
  },
  {
    name: "intl: DateTimeFormat resolvedOptions",
    code: `const o = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "Asia/Tokyo" }).resolvedOptions();
return { locale: o.locale, calendar: o.calendar, timeZone: o.timeZone, dateStyle: o.dateStyle };`,
  },
  {
    name: "intl: NumberFormat formatRange for price ranges",
    code: `const fmt = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
return [fmt.formatRange(10, 20), fmt.formatRange(1000, 5000), fmt.formatRange(5, 5)];`,
  },
  {
    name: "intl: unit formatting in long form",
    code: `const units = ["liter", "kilogram", "hour", "percent", "gigabyte"];
return units.map(u => new Intl.NumberFormat("en", { style: "unit", unit: u, unitDisplay: "long" }).format(2.5));`,
  },
  {
    name: "intl: currency in Chinese and Korean",
    code: `const n = 98765.43;
return {
  cny: n.toLocaleString("zh-CN", { style: "currency", currency: "CNY" }),
  krw: n.toLocaleString("ko-KR", { style: "currency", currency: "KRW" }),
  usdZh: n.toLocaleString("zh-CN", { style: "currency", currency: "USD" }),
};`,
  },
  {
    name: "intl: supportedValuesOf currencies",
    code: `const currencies = Intl.supportedValuesOf("currency");
return { hasEUR: currencies.includes("EUR"), hasUSD: currencies.includes("USD"), sorted: currencies.join() === [...currencies].sort().join() };`,
  },
  {
    name: "intl: time zone names long",
    code: `const d = new Date("2026-01-15T12:00:00Z");
return ["America/Los_Angeles", "Europe/Paris", "Asia/Kolkata"].map(tz =>
  new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: "long" }).formatToParts(d).find(p => p.type === "timeZoneName")?.value
);`,
  },
  {
    name: "intl: DurationFormat when available",
    code: `if (typeof (Intl as any).DurationFormat !== "function") return "DurationFormat unavailable";
const df = new (Intl as any).DurationFormat("en", { style: "long" });
return df.format({ hours: 2, minutes: 5, seconds: 30 });`,
  },
  {
    name: "intl: PluralRules driven message builder",
    code: `function msg(count: number, locale = "en") {
  const cat = new Intl.PluralRules(locale).select(count);
  const forms: Record<string, Record<string, string>> = {
    en: { one: "# open ticket", other: "# open tickets" },
    fr: { one: "# ticket ouvert", many: "# de tickets ouverts", other: "# tickets ouverts" },
  };
  return (forms[locale][cat] ?? forms[locale].other).replace("#", count.toLocaleString(locale));
}
return [msg(0), msg(1), msg(2500), msg(0, "fr"), msg(1, "fr"), msg(1000000, "fr")];`,
  },
  {
    name: "intl: Intl.NumberFormat cached formatter reuse",
    code: `const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const lines = [{ sku: "A1", qty: 3, unit: 19.99 }, { sku: "B2", qty: 1, unit: 249 }, { sku: "C3", qty: 12, unit: 0.35 }];
return lines.map(l => l.sku + ": " + l.qty + " × " + usd.format(l.unit) + " = " + usd.format(l.qty * l.unit));`,
  },
  {
    name: "intl: percent in fr-FR and de-CH",
    code: `const ratios = [0.256, 1, 0.0004];
return {
  fr: ratios.map(r => new Intl.NumberFormat("fr-FR", { style: "percent", maximumFractionDigits: 1 }).format(r)),
  deCH: ratios.map(r => new Intl.NumberFormat("de-CH", { style: "percent" }).format(r)),
};`,
  },
  {
    name: "intl: Locale with unicode extensions",
    code: `const loc = new Intl.Locale("de-DE", { calendar: "gregory", hourCycle: "h23", numberingSystem: "latn" });
return { str: loc.toString(), baseName: loc.baseName, hourCycle: loc.hourCycle, calendar: loc.calendar };`,
  },
  {
    name: "intl: DateTimeFormat with other calendars",
    code: `const d = new Date("2026-03-20T00:00:00Z");
return {
  japanese: d.toLocaleDateString("ja-JP-u-ca-japanese", { era: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }),
  buddhist: d.toLocaleDateString("th-TH", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }),
  islamic: d.toLocaleDateString("en-US-u-ca-islamic", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }),
};`,
  },
  {
    name: "intl: NumberFormat with unknown currency throws",
    code: `try {
  return new Intl.NumberFormat("en-US", { style: "currency" } as any).format(5);
} catch (e) {
  return { name: (e as Error).name, isTypeError: e instanceof TypeError };
}`,
  },
] satisfies Snippet[];
