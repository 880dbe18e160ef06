import type { Snippet } from "../snippet";

export default [
  {
    name: "regex: named groups to parse dates",
    code: `const re = /(?<year>\\d{4})-(?<month>\\d{2})-(?<day>\\d{2})/;
const m = "Invoice dated 2026-01-02, due 2026-02-01".match(re);
return m ? { ...m.groups, index: m.index } : null;`,
  },
  {
    name: "regex: lookbehind to extract prices",
    code: `const text = "Plan A costs $19.99, plan B costs $249, tax €5.50 and $0.99 fee";
return { usd: text.match(/(?<=\\$)\\d+(?:\\.\\d{2})?/g), notUsd: text.match(/(?<!\\$)\\b\\d+\\.\\d{2}\\b/g) };`,
  },
  {
    name: "regex: matchAll emails",
    code: `const text = "Contact zoe.muller@example.com, JOSE+sales@Empresa.es or support@øster.dk. Not: foo@bar";
const re = /[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+/g;
return [...text.matchAll(re)].map(m => ({ email: m[0], at: m.index }));`,
  },
  {
    name: "regex: replace with a function",
    code: `const template = "Order {id} for {customer} totals {total}";
const data: Record<string, string | number> = { id: 5521, customer: "Zoë", total: "$42.00" };
return template.replace(/\\{(\\w+)\\}/g, (_, key) => String(data[key] ?? "?"));`,
  },
  {
    name: "regex: mustache-style templates with spaces",
    code: `const tpl = "Hello {{ name }}, you have {{count}} new {{ noun }}.";
const vars: Record<string, unknown> = { name: "Ñúñez", count: 3, noun: "messages" };
return tpl.replace(/\\{\\{\\s*(\\w+)\\s*\\}\\}/g, (m, k) => (k in vars ? String(vars[k]) : m));`,
  },
  {
    name: "regex: sticky flag tokenizer",
    code: `const src = "sum(12, 3.5) * max(a,b)";
const re = /\\s*(?:(?<num>\\d+(?:\\.\\d+)?)|(?<id>[a-z]+)|(?<op>[(),*+\\-\\/]))/y;
const tokens: string[] = [];
let m: RegExpExecArray | null;
while ((m = re.exec(src)) !== null) {
  const [kind, value] = Object.entries(m.groups!).find(([, v]) => v !== undefined)!;
  tokens.push(kind + ":" + value);
}
return { tokens, stoppedAt: re.lastIndex };`,
  },
  {
    name: "regex: unicode property escapes for letters",
    code: `const names = ["Zoë", "Ñúñez", "Ωmega", "R2-D2", "李雷", "Øster"];
return names.map(n => ({ n, lettersOnly: /^\\p{L}+$/u.test(n), upperFirst: /^\\p{Lu}/u.test(n), han: /\\p{Script=Han}/u.test(n) }));`,
  },
  {
    name: "regex: split on multiple delimiters",
    code: `const raw = "red, green;blue |  yellow,,orange";
return raw.split(/\\s*[,;|]\\s*/).filter(s => s.length > 0);`,
  },
  {
    name: "regex: split with capture groups",
    code: `return {
  keep: "a1b22c333d".split(/(\\d+)/),
  limit: "2026-01-02".split(/-/, 2),
  empty: "abc".split(/(?:)/u),
};`,
  },
  {
    name: "regex: extract URLs from text",
    code: `const text = "Docs at https://example.com/docs?lang=en#intro and http://localhost:8080/api. Also www.test.org.";
return text.match(/https?:\\/\\/[^\\s)]+?(?=[.,]?(?:\\s|$))/g);`,
  },
  {
    name: "regex: validate emails",
    code: `const re = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]{2,}$/;
const inputs = ["zoe@example.com", "bad@", "a b@c.de", "x@y.z", "müller@straße.de"];
return inputs.map(e => [e, re.test(e)]);`,
  },
  {
    name: "regex: named group replacement syntax",
    code: `const dates = ["2026-01-02", "2025-12-31"];
return dates.map(d => d.replace(/(?<y>\\d{4})-(?<m>\\d{2})-(?<d>\\d{2})/, "$<d>/$<m>/$<y>"));`,
  },
  {
    name: "regex: global regex lastIndex pitfall",
    code: `const re = /ticket/g;
const lines = ["ticket A", "ticket B", "ticket C"];
const results = lines.map(l => re.test(l));
return { results, lastIndex: re.lastIndex };`,
  },
  {
    name: "regex: dotAll flag for multi-line blocks",
    code: `const text = "BEGIN\\nline 1\\nline 2\\nEND";
return { withoutS: /BEGIN.(.*)END/.test(text), withS: text.match(/BEGIN(.*)END/s)?.[1] };`,
  },
  {
    name: "regex: multiline anchors for headings",
    code: `const md = "# Title\\nSome text\\n## Section A\\ntext\\n## Section B\\n";
return [...md.matchAll(/^(#{1,6})\\s+(.+)$/gm)].map(m => ({ level: m[1].length, text: m[2] }));`,
  },
  {
    name: "regex: escape user input for RegExp",
    code: `const escapeRegExp = (s: string) => s.replace(/[.*+?^\${}()|[\\]\\\\]/g, "\\\\$&");
const term = "c++ (beta)?";
const re = new RegExp(escapeRegExp(term), "i");
return { escaped: escapeRegExp(term), match: re.test("Learn C++ (Beta)? today"), source: re.source, flags: re.flags };`,
  },
  {
    name: "regex: hashtags and mentions with unicode",
    code: `const post = "Great launch #Größe #café @zoë and @ñúñez! #2026 #ok_done";
return { tags: post.match(/#[\\p{L}\\p{N}_]+/gu), mentions: post.match(/@[\\p{L}\\p{N}_]+/gu) };`,
  },
  {
    name: "regex: normalize phone numbers",
    code: `const phones = ["(555) 123-4567", "+1 555.987.6543", "555 000 1111 ext 22", "12345"];
return phones.map(p => {
  const digits = p.replace(/\\D/g, "").replace(/^1(?=\\d{10})/, "");
  const m = digits.match(/^(\\d{3})(\\d{3})(\\d{4})/);
  return m ? \`(\${m[1]}) \${m[2]}-\${m[3]}\` : null;
});`,
  },
  {
    name: "regex: parse log lines",
    code: `const log = [
  "2026-01-02T10:00:01Z INFO  [api] GET /users 200 12ms",
  "2026-01-02T10:00:02Z ERROR [db] timeout after 5000ms",
  "garbage line",
  "2026-01-02T10:00:03Z WARN  [api] POST /orders 429 3ms",
];
const re = /^(?<ts>\\S+)\\s+(?<level>[A-Z]+)\\s+\\[(?<svc>\\w+)\\]\\s+(?<msg>.*)$/;
return log.map(l => l.match(re)?.groups ?? null);`,
  },
  {
    name: "regex: RegExp built from a string",
    code: `const words = ["refund", "chargeback", "dispute"];
const re = new RegExp("\\\\b(" + words.join("|") + ")\\\\b", "gi");
const text = "Customer asked for a Refund, then opened a DISPUTE. Refunds pending.";
return { matches: text.match(re), source: re.source, str: String(re) };`,
  },
  {
    name: "regex: match returns null and exec groups",
    code: `const r1 = "no digits here".match(/\\d+/);
const r2 = /(\\w+)@(\\w+)\\.com/.exec("mail zoe@acme.com now");
return { r1, r2: r2 ? [...r2] : null, index: r2?.index, input: r2?.input };`,
  },
  {
    name: "regex: greedy versus lazy",
    code: `const html = "<b>bold</b> and <i>italic</i>";
return { greedy: html.match(/<.+>/)![0], lazy: html.match(/<.+?>/g), stripped: html.replace(/<[^>]+>/g, "") };`,
  },
  {
    name: "regex: backreferences to find repeated words",
    code: `const text = "This is is a test of the the duplicate detector detector.";
return { dupes: [...text.matchAll(/\\b(\\w+)\\s+\\1\\b/gi)].map(m => m[1]), fixed: text.replace(/\\b(\\w+)\\s+\\1\\b/gi, "$1") };`,
  },
  {
    name: "regex: hasIndices d flag",
    code: `const m = /(?<key>\\w+)=(?<val>\\w+)/d.exec("config: mode=fast");
return { indices: m!.indices ? [...m!.indices].map(x => x ? [...x] : x) : null, groups: m!.indices?.groups ? { ...m!.indices.groups } : null };`,
  },
  {
    name: "regex: search and case-insensitive unicode",
    code: `return {
  search: "Hello ZOË".search(/zoë/i),
  unicodeI: /ǅ/iu.test("ǆ"),
  sigma: /σ/i.test("Σ"),
  kelvin: /k/iu.test("\\u212A"),
  kelvinNoU: /k/i.test("\\u212A"),
};`,
  },
  {
    name: "regex: replaceAll with special patterns",
    code: `const s = "price: 10 USD, 20 USD";
return {
  dollar: s.replaceAll("USD", "$$"),
  matched: s.replace(/\\d+/g, "[$&]"),
  before: "abc".replace("b", "$\`"),
  after: "abc".replace("b", "$'"),
};`,
  },
  {
    name: "regex: parse key=value query-like strings",
    code: `const input = 'name="Zoë Ångström" age=34 city=Malmö note="said \\\\"hi\\\\""';
const re = /(\\w+)=(?:"((?:[^"\\\\]|\\\\.)*)"|(\\S+))/g;
const out: Record<string, string> = {};
for (const m of input.matchAll(re)) out[m[1]] = m[2] !== undefined ? m[2].replace(/\\\\"/g, '"') : m[3];
return out;`,
  },
  {
    name: "regex: extract ISO dates and amounts from a CSV line",
    code: `const line = "2026-01-02,ACME GmbH,\\"1.234,56\\",EUR,2026-02-01";
return { dates: line.match(/\\d{4}-\\d{2}-\\d{2}/g), quoted: line.match(/"([^"]*)"/)?.[1], amount: Number(line.match(/"([^"]*)"/)![1].replace(/\\./g, "").replace(",", ".")) };`,
  },
  {
    name: "regex: v flag set operations when supported",
    code: `try {
  const re = new RegExp("[\\\\p{L}--[a-z]]", "v");
  return ["a", "Z", "é", "1"].map(c => re.test(c));
} catch (e) {
  return "v flag unsupported: " + (e as Error).name;
}`,
  },
] satisfies Snippet[];
