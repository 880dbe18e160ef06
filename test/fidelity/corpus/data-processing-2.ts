import type { Snippet } from "../snippet";

// Agent-style data work, continued from data-processing.ts (one file stays under 400 lines).
export default [
  {
    name: "data-processing: standard deviation and z-scores",
    code: `const values = [12.5, 15.1, 9.8, 22.4, 18.0, 11.3, 30.2];
const mean = values.reduce((a, b) => a + b) / values.length;
const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
return { mean: +mean.toFixed(3), sd: +sd.toFixed(3), outliers: values.filter(v => Math.abs((v - mean) / sd) > 1.5) };`,
  },
  {
    name: "data-processing: email domain breakdown",
    code: `const users = ["zoe@example.com", "hans@firma.de", "li@example.com", "ana@EXAMPLE.com", "x@gmail.com", "y@gmail.com", "z@gmail.com"];
const byDomain = users.reduce<Record<string, number>>((acc, e) => { const d = e.split("@")[1].toLowerCase(); acc[d] = (acc[d] || 0) + 1; return acc; }, {});
return Object.entries(byDomain).sort((a, b) => b[1] - a[1]).map(([d, n]) => \`\${d}: \${n} (\${((n / users.length) * 100).toFixed(1)}%)\`);`,
  },
  {
    name: "data-processing: merge records from two sources",
    code: `const crm = [{ email: "zoe@example.com", name: "Zoë", tier: "gold" }, { email: "hans@firma.de", name: "Hans" }];
const billing = [{ email: "zoe@example.com", mrr: 499 }, { email: "nunez@example.es", mrr: 99 }];
const merged = new Map<string, Record<string, unknown>>();
for (const r of [...crm, ...billing]) merged.set(r.email, { ...(merged.get(r.email) ?? {}), ...r });
return [...merged.values()];`,
  },
  {
    name: "data-processing: format durations for tickets",
    code: `const tickets = [{ id: "T1", mins: 45 }, { id: "T2", mins: 135 }, { id: "T3", mins: 2890 }, { id: "T4", mins: 0 }];
const fmt = (m: number) => {
  const d = Math.floor(m / 1440), h = Math.floor((m % 1440) / 60), mm = m % 60;
  return [d && d + "d", h && h + "h", (mm || (!d && !h)) && mm + "m"].filter(Boolean).join(" ");
};
return tickets.map(t => ({ id: t.id, resolved: fmt(t.mins) }));`,
  },
  {
    name: "data-processing: weighted average rating",
    code: `const reviews = [{ product: "A", stars: 5, weight: 2 }, { product: "A", stars: 3, weight: 1 }, { product: "B", stars: 4, weight: 1 }, { product: "B", stars: 2, weight: 3 }];
const agg: Record<string, { sum: number; w: number }> = {};
for (const r of reviews) { agg[r.product] ??= { sum: 0, w: 0 }; agg[r.product].sum += r.stars * r.weight; agg[r.product].w += r.weight; }
return Object.entries(agg).map(([p, { sum, w }]) => ({ product: p, rating: Math.round((sum / w) * 10) / 10, stars: "★".repeat(Math.round(sum / w)) + "☆".repeat(5 - Math.round(sum / w)) }));`,
  },
  {
    name: "data-processing: invoice totals with tax and discount",
    code: `const lines = [{ desc: "Widget", qty: 3, unit: 19.99 }, { desc: "Gadget", qty: 1, unit: 249.0 }, { desc: "Cable", qty: 10, unit: 2.35 }];
const subtotal = lines.reduce((s, l) => s + l.qty * l.unit, 0);
const discount = subtotal > 250 ? subtotal * 0.1 : 0;
const tax = (subtotal - discount) * 0.19;
const total = subtotal - discount + tax;
const eur = (n: number) => n.toLocaleString("de-DE", { style: "currency", currency: "EUR" });
return { subtotal: eur(subtotal), discount: eur(-discount), tax: eur(tax), total: eur(total), rawTotal: Math.round(total * 100) / 100 };`,
  },
  {
    name: "data-processing: cohort retention table",
    code: `const users = [
  { id: 1, signup: "2026-01", active: ["2026-01", "2026-02", "2026-03"] },
  { id: 2, signup: "2026-01", active: ["2026-01"] },
  { id: 3, signup: "2026-02", active: ["2026-02", "2026-03"] },
  { id: 4, signup: "2026-02", active: ["2026-02"] },
  { id: 5, signup: "2026-01", active: ["2026-01", "2026-03"] },
];
const months = ["2026-01", "2026-02", "2026-03"];
const cohorts = [...new Set(users.map(u => u.signup))];
return cohorts.map(c => {
  const members = users.filter(u => u.signup === c);
  return { cohort: c, size: members.length, retention: months.filter(m => m >= c).map(m => Math.round((members.filter(u => u.active.includes(m)).length / members.length) * 100) + "%") };
});`,
  },
  {
    name: "data-processing: normalize and validate phone and email fields",
    code: `const contacts = [
  { name: " zoë ångström ", email: " ZOE@Example.COM", phone: "+46 (70) 123-45-67" },
  { name: "HANS MÜLLER", email: "hans@@firma.de", phone: "0049 30 1234567" },
];
return contacts.map(c => {
  const email = c.email.trim().toLowerCase();
  return {
    name: c.name.trim().toLowerCase().replace(/(^|\\s)\\p{L}/gu, m => m.toUpperCase()),
    email,
    emailValid: /^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$/.test(email),
    phone: c.phone.replace(/[^\\d+]/g, "").replace(/^00/, "+"),
  };
});`,
  },
  {
    name: "data-processing: summary stats object for a report",
    code: `const orders = [42.5, 17.99, 250, 99.95, 5, 130.1, 64.2];
const sum = orders.reduce((a, b) => a + b, 0);
return {
  count: orders.length,
  sum: Math.round(sum * 100) / 100,
  min: Math.min(...orders),
  max: Math.max(...orders),
  mean: +(sum / orders.length).toFixed(2),
  formatted: "Total " + sum.toLocaleString("en-US", { style: "currency", currency: "USD" }) + " across " + orders.length + " orders",
};`,
  },
  {
    name: "data-processing: rank with ties",
    code: `const scores = [{ n: "Zoë", s: 98 }, { n: "Øster", s: 87 }, { n: "Ñúñez", s: 98 }, { n: "Müller", s: 75 }, { n: "çelik", s: 87 }];
const sorted = [...scores].sort((a, b) => b.s - a.s || a.n.localeCompare(b.n));
let rank = 0, prev: number | null = null;
return sorted.map((x, i) => { if (x.s !== prev) { rank = i + 1; prev = x.s; } return rank + ". " + x.n + " (" + x.s + ")"; });`,
  },
  {
    name: "data-processing: text report with dates and totals",
    code: `const tickets = [
  { id: 1, title: "Login fails", createdAt: "2026-01-02T10:00:00Z", hours: 3.25 },
  { id: 2, title: "Export slow", createdAt: "2026-01-03T14:30:00Z", hours: 12 },
];
const fmt = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC" });
const lines = tickets.map(t => \`#\${t.id} \${t.title.padEnd(14)} \${fmt.format(new Date(t.createdAt))} \${t.hours.toFixed(1)}h\`);
lines.push("Total: " + tickets.reduce((s, t) => s + t.hours, 0) + "h");
return lines.join("\\n");`,
  },
  {
    name: "data-processing: tree from flat parent ids",
    code: `const rows = [{ id: 1, parent: null, name: "Root" }, { id: 2, parent: 1, name: "Sales" }, { id: 3, parent: 1, name: "Eng" }, { id: 4, parent: 3, name: "Platform" }, { id: 5, parent: 2, name: "EMEA" }];
type Node = { name: string; children: Node[] };
const nodes = new Map<number, Node>(rows.map(r => [r.id, { name: r.name, children: [] }]));
let root: Node | undefined;
for (const r of rows) r.parent === null ? (root = nodes.get(r.id)) : nodes.get(r.parent)!.children.push(nodes.get(r.id)!);
const render = (n: Node, depth = 0): string[] => [("  ".repeat(depth)) + "- " + n.name, ...n.children.flatMap(c => render(c, depth + 1))];
return render(root!).join("\\n");`,
  },
  {
    name: "data-processing: search and highlight matches",
    code: `const docs = ["Refund policy for EU customers", "How to request a refund", "Shipping times to Malmö", "REFUNDS and returns FAQ"];
const q = "refund";
return docs.filter(d => d.toLowerCase().includes(q)).map(d => d.replace(new RegExp("(" + q + ")", "gi"), "**$1**"));`,
  },
  {
    name: "data-processing: counts per weekday from timestamps",
    code: `const stamps = ["2026-01-05T09:00:00Z", "2026-01-06T10:00:00Z", "2026-01-06T23:59:00Z", "2026-01-10T12:00:00Z", "2026-01-11T08:00:00Z", "2026-01-12T07:00:00Z"];
const counts: Record<string, number> = {};
for (const s of stamps) {
  const day = new Date(s).toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" });
  counts[day] = (counts[day] ?? 0) + 1;
}
return counts;`,
  },
  {
    name: "data-processing: JSON summary for an LLM answer",
    code: `const orders = [
  { id: "o1", customer: "Zoë", total: 120, status: "shipped", placedAt: "2026-01-02T10:00:00Z" },
  { id: "o2", customer: "Øster", total: 75.5, status: "pending", placedAt: "2026-01-03T11:00:00Z" },
  { id: "o3", customer: "Zoë", total: 300, status: "shipped", placedAt: "2026-01-04T09:30:00Z" },
];
const shipped = orders.filter(o => o.status === "shipped");
return {
  totalOrders: orders.length,
  shippedRevenue: shipped.reduce((s, o) => s + o.total, 0),
  customers: [...new Set(orders.map(o => o.customer))],
  latest: orders.map(o => o.placedAt).sort().at(-1),
  pendingIds: orders.filter(o => o.status === "pending").map(o => o.id),
};`,
  },
  {
    name: "data-processing: bucketing amounts into price tiers",
    code: `const amounts = [4.99, 19.99, 49, 99.99, 149, 500, 1200];
const tiers = [{ max: 10, label: "< $10" }, { max: 50, label: "$10–49" }, { max: 200, label: "$50–199" }, { max: Infinity, label: "$200+" }];
const out = Object.fromEntries(tiers.map(t => [t.label, 0]));
for (const a of amounts) out[tiers.find(t => a < t.max)!.label]++;
return out;`,
  },
  {
    name: "data-processing: fill missing dates in a time series",
    code: `const points = [{ date: "2026-01-01", v: 5 }, { date: "2026-01-03", v: 8 }, { date: "2026-01-06", v: 2 }];
const byDate = new Map(points.map(p => [p.date, p.v]));
const out: { date: string; v: number }[] = [];
for (let d = new Date(points[0].date); d <= new Date(points.at(-1)!.date); d.setUTCDate(d.getUTCDate() + 1)) {
  const key = d.toISOString().slice(0, 10);
  out.push({ date: key, v: byDate.get(key) ?? 0 });
}
return out;`,
  },
  {
    name: "data-processing: keyword frequency across tickets",
    code: `const titles = ["Cannot login after reset", "Login page slow", "Export to CSV fails", "CSV export missing columns", "Reset password email not sent"];
const stop = new Set(["to", "after", "not", "page"]);
const freq = new Map<string, number>();
for (const t of titles) for (const w of t.toLowerCase().split(/\\W+/)) if (w && !stop.has(w)) freq.set(w, (freq.get(w) ?? 0) + 1);
return [...freq].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));`,
  },
] satisfies Snippet[];
