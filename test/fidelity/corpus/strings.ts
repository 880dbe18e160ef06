import type { Snippet } from "../snippet";

export default [
  {
    name: "strings: pad invoice numbers",
    code: `const ids = [7, 42, 1234];
return ids.map(n => "INV-" + String(n).padStart(6, "0"));`,
  },
  {
    name: "strings: fixed-width columns with padEnd",
    code: `const rows = [["Zoë", 12], ["Ångström", 7], ["Li", 1234]] as const;
return rows.map(([name, qty]) => name.padEnd(10, ".") + String(qty).padStart(6)).join("\\n");`,
  },
  {
    name: "strings: normalize NFC and NFD lengths",
    code: `const composed = "Zo\\u00eb";
const decomposed = "Zoe\\u0308";
return {
  equal: composed === decomposed,
  equalNfc: composed.normalize("NFC") === decomposed.normalize("NFC"),
  lenNfc: composed.normalize("NFC").length,
  lenNfd: composed.normalize("NFD").length,
  nfkc: "\\uFB01le \\u2460".normalize("NFKC"),
};`,
  },
  {
    name: "strings: slugify a title with accents",
    code: `function slugify(s: string): string {
  return s.normalize("NFD").replace(/[\\u0300-\\u036f]/g, "").toLowerCase().trim().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}
return ["Crème Brûlée Recipe!", "  Ñúñez & Müller GmbH ", "Øster Ångström çelik"].map(slugify);`,
  },
  {
    name: "strings: Turkish upper and lower case",
    code: `const word = "istanbul";
return {
  tr: word.toLocaleUpperCase("tr-TR"),
  en: word.toLocaleUpperCase("en-US"),
  plain: word.toUpperCase(),
  lowerI: "IŞIK".toLocaleLowerCase("tr-TR"),
  lowerDotted: "İ".toLowerCase().length,
};`,
  },
  {
    name: "strings: German sharp s and special casing",
    code: `return {
  upper: "straße".toUpperCase(),
  lower: "ÖSTERREICH".toLowerCase(),
  greek: "ΟΔΥΣΣΕΥΣ".toLowerCase(),
  ligature: "ﬁne".toUpperCase(),
};`,
  },
  {
    name: "strings: truncate with ellipsis",
    code: `const truncate = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + "…" : s);
const subjects = ["Refund request for order #5521", "Hi", "Zoë cannot log in after the password reset email"];
return subjects.map(s => truncate(s, 20));`,
  },
  {
    name: "strings: title case names",
    code: `const names = ["zoë ångström", "JOSÉ ñúñez", "o'brien-smith", "élodie   müller"];
return names.map(n => n.toLowerCase().split(/\\s+/).map(w => w.charAt(0).toUpperCase() + w.slice(1)).join(" "));`,
  },
  {
    name: "strings: emoji length versus code points",
    code: `const s = "Hi 👋🏽 from 🇫🇷 and 👨‍👩‍👧";
return { length: s.length, codePoints: [...s].length, arrayFrom: Array.from(s).length };`,
  },
  {
    name: "strings: codePointAt and fromCodePoint",
    code: `const s = "Zoë 😀";
return {
  codes: [...s].map(c => c.codePointAt(0)!.toString(16)),
  charCode: s.charCodeAt(5),
  rebuilt: String.fromCodePoint(0x1F600, 0x41, 0xE9),
  fromChar: String.fromCharCode(72, 105),
};`,
  },
  {
    name: "strings: replaceAll and split lines",
    code: `const raw = "line one\\r\\nline two\\n\\nline   three  \\n";
const lines = raw.split(/\\r?\\n/).map(l => l.trim()).filter(Boolean);
return { lines, joined: lines.join(" | ").replaceAll("line", "row") };`,
  },
  {
    name: "strings: word count and character frequency",
    code: `const text = "The quick brown fox jumps over the lazy dog. The dog sleeps.";
const words = text.toLowerCase().match(/[a-z']+/g) ?? [];
const freq: Record<string, number> = {};
for (const w of words) freq[w] = (freq[w] || 0) + 1;
return { count: words.length, top: Object.entries(freq).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3) };`,
  },
  {
    name: "strings: camelCase to snake_case and back",
    code: `const toSnake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
const toCamel = (s: string) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const keys = ["createdAt", "userID", "httpStatusCode", "customer_first_name"];
return keys.map(k => ({ k, snake: toSnake(k), camel: toCamel(toSnake(k)) }));`,
  },
  {
    name: "strings: repeat for a text bar chart",
    code: `const data = { open: 12, pending: 5, closed: 21 };
const max = Math.max(...Object.values(data));
return Object.entries(data).map(([k, v]) => k.padEnd(8) + "█".repeat(Math.round((v / max) * 20)) + " " + v).join("\\n");`,
  },
  {
    name: "strings: mask emails",
    code: `const emails = ["zoe.muller@example.com", "a@b.io", "nunez.jose@empresa.es"];
return emails.map(e => {
  const [user, domain] = e.split("@");
  return user[0] + "*".repeat(Math.max(user.length - 2, 1)) + user.slice(-1) + "@" + domain;
});`,
  },
  {
    name: "strings: initials from full names",
    code: `const people = ["Zoë Ångström", "Ñúñez García", "Øster Müller", "çelik"];
return people.map(p => p.split(" ").map(w => w[0].toUpperCase()).join(""));`,
  },
  {
    name: "strings: slice, substring and substr with negatives",
    code: `const s = "2026-01-02T10:00:00Z";
return {
  slice: s.slice(-9, -1),
  substring: s.substring(5, 0),
  substr: s.substr(-3, 2),
  at: s.at(-1),
  charAt: s.charAt(100),
};`,
  },
  {
    name: "strings: wrap text to a width",
    code: `function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if ((line + " " + word).trim().length > width) { out.push(line); line = word; }
    else line = (line + " " + word).trim();
  }
  if (line) out.push(line);
  return out;
}
return wrap("Customer Zoë reported that the export to CSV fails when the file contains more than ten thousand rows.", 24);`,
  },
  {
    name: "strings: trim variants and whitespace kinds",
    code: `const s = "\\u00a0\\t  hello world \\u2003\\n";
return { trim: s.trim(), start: s.trimStart(), end: s.trimEnd(), len: s.trim().length };`,
  },
  {
    name: "strings: includes, startsWith, endsWith checks",
    code: `const files = ["report.final.PDF", "data.csv", "image.jpeg", ".env", "notes.txt.bak"];
return files.map(f => ({
  f,
  pdf: f.toLowerCase().endsWith(".pdf"),
  hidden: f.startsWith("."),
  hasDot: f.includes(".", 1),
  ext: f.slice(f.lastIndexOf(".") + 1),
}));`,
  },
  {
    name: "strings: comparing strings with relational operators",
    code: `const pairs: [string, string][] = [["apple", "Banana"], ["Zoë", "Zoe"], ["10", "9"], ["a", "ä"]];
return pairs.map(([a, b]) => ({ a, b, lt: a < b, cmp: a.localeCompare(b) }));`,
  },
  {
    name: "strings: String.raw for a Windows path",
    code: `const path = String.raw\`C:\\Users\\zoe\\reports\\q1.xlsx\`;
return { path, parts: path.split("\\\\"), length: path.length };`,
  },
  {
    name: "strings: multi-line template for an email body",
    code: `const customer = { name: "Zoë", orders: 3, total: 149.5 };
const body = \`Hi \${customer.name},

You placed \${customer.orders} orders totalling $\${customer.total.toFixed(2)}.
Thanks!\`;
return body.split("\\n");`,
  },
  {
    name: "strings: center text in a banner",
    code: `function center(s: string, width: number, fill = "=") {
  const total = Math.max(width - s.length - 2, 0);
  const left = Math.floor(total / 2);
  return fill.repeat(left) + " " + s + " " + fill.repeat(total - left);
}
return [center("Weekly Report", 30), center("Q1", 10, "-")];`,
  },
  {
    name: "strings: count occurrences of a substring",
    code: `const log = "ERROR timeout; WARN slow; ERROR refused; INFO ok; ERROR timeout";
return {
  errors: log.split("ERROR").length - 1,
  timeouts: (log.match(/timeout/g) || []).length,
  firstWarn: log.indexOf("WARN"),
  lastError: log.lastIndexOf("ERROR"),
};`,
  },
  {
    name: "strings: reverse a string with unicode",
    code: `const s = "Ñúñez 🙂";
return { naive: s.split("").reverse().join("") === [...s].reverse().join(""), proper: [...s].reverse().join("") };`,
  },
  {
    name: "strings: escape HTML",
    code: `const escapeHtml = (s: string) => s.replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]!));
return escapeHtml('<a href="x">Tom & Jerry\\'s</a>');`,
  },
  {
    name: "strings: localeCompare default for accented words",
    code: `const words = ["résumé", "resume", "Resume", "résume", "rèsumé"];
return [...words].sort((a, b) => a.localeCompare(b));`,
  },
  {
    name: "strings: toUpperCase of non-ASCII names",
    code: `const names = ["zoë", "ångström", "ñúñez", "müller", "øster", "çelik", "ǆ"];
return names.map(n => n.toUpperCase());`,
  },
  {
    name: "strings: pad with multi-char filler and split limit",
    code: `return {
  pad: "7".padStart(5, "ab"),
  padEnd: "abc".padEnd(2, "x"),
  split: "a,b,c,d".split(",", 2),
  splitEmpty: "".split(","),
  chars: "héllo".split(""),
};`,
  },
  {
    name: "strings: isWellFormed and lone surrogates",
    code: `const good = "Zoë 😀";
const bad = "abc\\uD800def";
return {
  good: good.isWellFormed(),
  bad: bad.isWellFormed(),
  fixed: bad.toWellFormed(),
  encoded: encodeURIComponent(good),
};`,
  },
  {
    name: "strings: localeCompare with locales argument",
    code: `return {
  de: "ä".localeCompare("z", "de"),
  sv: "ä".localeCompare("z", "sv"),
  en: "a".localeCompare("B", "en"),
  sameBase: "a".localeCompare("á", "en", { sensitivity: "base" }),
};`,
  },
] satisfies Snippet[];
