import type { Snippet } from "../snippet";

export default [
  {
    name: "collation: sort customer names with accents",
    code: `const names = ["Zoë", "Ångström", "Ñúñez", "Müller", "Øster", "çelik", "Adams", "zeta", "Élodie", "Mueller"];
return [...names].sort((a, b) => a.localeCompare(b));`,
  },
  {
    name: "collation: default sort versus localeCompare",
    code: `const names = ["bob", "Alice", "Zoë", "émile", "Émile", "alice"];
return { defaultSort: [...names].sort(), locale: [...names].sort((a, b) => a.localeCompare(b)) };`,
  },
  {
    name: "collation: case-insensitive sort with sensitivity base",
    code: `const tags = ["beta", "Alpha", "alpha", "Beta", "ALPHA", "gamma", "Gämma"];
return [...tags].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: "base" }));`,
  },
  {
    name: "collation: numeric collation for item names",
    code: `const items = ["item10", "item2", "item1", "item20", "Item3", "item02"];
return {
  plain: [...items].sort(),
  numeric: [...items].sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: "base" })),
};`,
  },
  {
    name: "collation: file names with Intl.Collator numeric",
    code: `const files = ["page-10.md", "page-9.md", "page-1.md", "page-100.md", "Page-2.md", "page-1a.md"];
const collator = new Intl.Collator("en", { numeric: true });
return files.sort(collator.compare);`,
  },
  {
    name: "collation: Swedish sorts Å Ä Ö after Z",
    code: `const words = ["Örebro", "Åre", "Zeta", "Ängelholm", "Alingsås", "Ystad"];
return {
  sv: [...words].sort(new Intl.Collator("sv").compare),
  en: [...words].sort(new Intl.Collator("en").compare),
};`,
  },
  {
    name: "collation: German phonebook collation",
    code: `const names = ["Müller", "Mueller", "Muller", "Mahler", "Möller"];
return {
  standard: [...names].sort(new Intl.Collator("de").compare),
  phonebook: [...names].sort(new Intl.Collator("de-u-co-phonebk").compare),
};`,
  },
  {
    name: "collation: Spanish ñ ordering",
    code: `const words = ["nube", "ñandú", "nuez", "oso", "Núñez", "ninguno"];
return [...words].sort((a, b) => a.localeCompare(b, "es"));`,
  },
  {
    name: "collation: Danish Æ Ø Å",
    code: `const names = ["Åse", "Øster", "Ærø", "Aabenraa", "Zealand", "Odense"];
return [...names].sort(new Intl.Collator("da").compare);`,
  },
  {
    name: "collation: caseFirst upper",
    code: `const words = ["apple", "Apple", "APPLE", "banana", "Banana"];
return {
  upper: [...words].sort(new Intl.Collator("en", { caseFirst: "upper" }).compare),
  lower: [...words].sort(new Intl.Collator("en", { caseFirst: "lower" }).compare),
};`,
  },
  {
    name: "collation: ignorePunctuation",
    code: `const words = ["co-op", "coop", "co op", "cool", "co.operate"];
return [...words].sort(new Intl.Collator("en", { ignorePunctuation: true }).compare);`,
  },
  {
    name: "collation: compare results for common pairs",
    code: `const pairs: [string, string][] = [["a", "A"], ["a", "b"], ["B", "a"], ["résumé", "resume"], ["e", "é"], ["10", "9"], ["", "a"]];
return pairs.map(([x, y]) => [x, y, Math.sign(x.localeCompare(y))]);`,
  },
  {
    name: "collation: sensitivity levels",
    code: `const pairs: [string, string][] = [["a", "á"], ["a", "A"], ["a", "b"]];
const levels = ["base", "accent", "case", "variant"] as const;
return levels.map(s => ({ s, results: pairs.map(([x, y]) => x.localeCompare(y, "en", { sensitivity: s })) }));`,
  },
  {
    name: "collation: dedupe names case- and accent-insensitively",
    code: `const raw = ["Zoë", "zoe", "ZOE", "Zoé", "Müller", "muller", "Mueller"];
const collator = new Intl.Collator("en", { sensitivity: "base" });
const unique: string[] = [];
for (const n of raw) if (!unique.some(u => collator.compare(u, n) === 0)) unique.push(n);
return unique;`,
  },
  {
    name: "collation: resolvedOptions of a collator",
    code: `const c = new Intl.Collator("de-DE", { numeric: true, sensitivity: "base" });
const o = c.resolvedOptions();
return { locale: o.locale, usage: o.usage, sensitivity: o.sensitivity, numeric: o.numeric, caseFirst: o.caseFirst, collation: o.collation, ignorePunctuation: o.ignorePunctuation };`,
  },
  {
    name: "collation: sort objects by last name then first name",
    code: `const people = [
  { first: "Zoë", last: "Ångström" },
  { first: "Ana", last: "Núñez" },
  { first: "ana", last: "Nunez" },
  { first: "Lukas", last: "Müller" },
  { first: "Emre", last: "Çelik" },
];
const c = new Intl.Collator("en", { sensitivity: "base" });
return people.sort((a, b) => c.compare(a.last, b.last) || c.compare(a.first, b.first)).map(p => p.first + " " + p.last);`,
  },
  {
    name: "collation: Japanese kana and kanji",
    code: `const words = ["さくら", "アイス", "あさひ", "東京", "カメラ", "いぬ"];
return [...words].sort(new Intl.Collator("ja").compare);`,
  },
  {
    name: "collation: Turkish dotted and dotless i",
    code: `const words = ["ılık", "ipek", "Istanbul", "İzmir", "ırmak", "iğne"];
return { tr: [...words].sort(new Intl.Collator("tr").compare), en: [...words].sort(new Intl.Collator("en").compare) };`,
  },
  {
    name: "collation: usage search finds accent-insensitive matches",
    code: `const names = ["Zoë Ångström", "Jose Nunez", "José Núñez", "Lukas Müller"];
const c = new Intl.Collator("en", { usage: "search", sensitivity: "base" });
const query = "nunez";
return names.filter(n => n.split(" ").some(part => c.compare(part, query) === 0));`,
  },
  {
    name: "collation: supportedLocalesOf",
    code: `return Intl.Collator.supportedLocalesOf(["de-DE", "sv", "xx-YY", "ja-JP", "tlh"]);`,
  },
  {
    name: "collation: sort mixed symbols, digits and letters",
    code: `const values = ["_draft", "#tag", "2nd", "10th", "apple", "Zebra", "éclair", "@mention", " space"];
return [...values].sort((a, b) => a.localeCompare(b));`,
  },
  {
    name: "collation: French accent ordering",
    code: `const words = ["cote", "côte", "coté", "côté"];
return { fr: [...words].sort(new Intl.Collator("fr").compare), frCA: [...words].sort(new Intl.Collator("fr-CA").compare) };`,
  },
  {
    name: "collation: product codes with numeric and case options",
    code: `const codes = ["SKU-100", "sku-20", "SKU-3", "Sku-20b", "sku-020"];
return codes.sort((a, b) => a.localeCompare(b, "en", { numeric: true, caseFirst: "upper" }));`,
  },
] satisfies Snippet[];
