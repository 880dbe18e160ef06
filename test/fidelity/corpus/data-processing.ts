import type { Snippet } from "../snippet";

export default [
  {
    name: "data-processing: group tickets by status with counts",
    code: `interface Ticket { id: string; status: "open" | "pending" | "closed"; priority: "low" | "medium" | "high"; createdAt: string }
const tickets: Ticket[] = [
  { id: "T-101", status: "open", priority: "high", createdAt: "2026-01-02T10:00:00Z" },
  { id: "T-102", status: "closed", priority: "low", createdAt: "2026-01-01T09:00:00Z" },
  { id: "T-103", status: "open", priority: "medium", createdAt: "2026-01-03T11:30:00Z" },
  { id: "T-104", status: "pending", priority: "high", createdAt: "2026-01-03T08:15:00Z" },
  { id: "T-105", status: "open", priority: "low", createdAt: "2026-01-04T16:45:00Z" },
];
const byStatus: Record<string, string[]> = {};
for (const t of tickets) (byStatus[t.status] ??= []).push(t.id);
const counts = Object.fromEntries(Object.entries(byStatus).map(([k, v]) => [k, v.length]));
return { byStatus, counts };`,
  },
  {
    name: "data-processing: top customers by revenue",
    code: `const orders = [
  { customer: "Zoë Ångström", amount: 1250.5 },
  { customer: "Ñúñez SA", amount: 980 },
  { customer: "Müller GmbH", amount: 2300.75 },
  { customer: "Zoë Ångström", amount: 420 },
  { customer: "Øster ApS", amount: 150.25 },
  { customer: "çelik Ltd", amount: 2300.75 },
];
const revenue = new Map<string, number>();
for (const o of orders) revenue.set(o.customer, (revenue.get(o.customer) ?? 0) + o.amount);
return [...revenue].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3).map(([customer, total], i) => ({ rank: i + 1, customer, total: total.toFixed(2) }));`,
  },
  {
    name: "data-processing: average, median and p95 response times",
    code: `const latencies = [120, 85, 340, 95, 110, 2050, 130, 99, 101, 87, 450, 115, 92, 105, 98, 1000, 76, 88, 93, 140];
const sorted = [...latencies].sort((a, b) => a - b);
const avg = latencies.reduce((a, b) => a + b, 0) / latencies.length;
const median = (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
const pct = (p: number) => sorted[Math.ceil((p / 100) * sorted.length) - 1];
return { avg: Math.round(avg * 100) / 100, median, p90: pct(90), p95: pct(95), p99: pct(99), max: sorted.at(-1) };`,
  },
  {
    name: "data-processing: markdown table of orders",
    code: `const rows = [
  { id: "A-1", customer: "Zoë", total: 1234.5, status: "paid" },
  { id: "A-2", customer: "Müller", total: 89, status: "refunded" },
  { id: "A-3", customer: "Ñúñez", total: 15000, status: "pending" },
];
const header = "| ID | Customer | Total | Status |\\n|---|---|---:|---|";
const lines = rows.map(r => \`| \${r.id} | \${r.customer} | \${r.total.toLocaleString("en-US", { style: "currency", currency: "USD" })} | \${r.status} |\`);
return [header, ...lines].join("\\n");`,
  },
  {
    name: "data-processing: markdown table with padded columns",
    code: `const data = [["Name", "Tickets", "Avg hrs"], ["Zoë Ångström", "12", "3.5"], ["Øster", "7", "10.25"], ["Ñúñez", "101", "0.8"]];
const widths = data[0].map((_, c) => Math.max(...data.map(r => r[c].length)));
const fmt = (r: string[]) => "| " + r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(" | ") + " |";
return [fmt(data[0]), "|" + widths.map(w => "-".repeat(w + 2)).join("|") + "|", ...data.slice(1).map(fmt)].join("\\n");`,
  },
  {
    name: "data-processing: build a CSV with quoting",
    code: `const customers = [
  { name: "Zoë Ångström", email: "zoe@example.com", note: 'Says "hi", often' },
  { name: "Müller, Hans", email: "hans@example.de", note: "multi\\nline" },
  { name: "Ñúñez", email: "nunez@example.es", note: "" },
];
const esc = (v: string) => (/[",\\n]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v);
const cols = ["name", "email", "note"] as const;
const csv = [cols.join(","), ...customers.map(c => cols.map(k => esc(c[k])).join(","))].join("\\r\\n");
return csv;`,
  },
  {
    name: "data-processing: parse CSV with quoted fields",
    code: `const csv = 'id,name,amount,currency\\n1,"Müller, Hans",1234.50,EUR\\n2,Zoë,99,USD\\n3,"Say ""cheese""",0.5,GBP';
function parseLine(line: string): string[] {
  const out: string[] = [];
  let cur = "", inQ = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (inQ) {
      if (ch === '"' && line[i + 1] === '"') { cur += '"'; i++; }
      else if (ch === '"') inQ = false;
      else cur += ch;
    } else if (ch === '"') inQ = true;
    else if (ch === ",") { out.push(cur); cur = ""; }
    else cur += ch;
  }
  out.push(cur);
  return out;
}
const [header, ...lines] = csv.split("\\n");
const keys = parseLine(header);
return lines.map(l => Object.fromEntries(parseLine(l).map((v, i) => [keys[i], i === 2 ? Number(v) : v])));`,
  },
  {
    name: "data-processing: paginate results",
    code: `const items = Array.from({ length: 23 }, (_, i) => ({ id: i + 1 }));
function paginate<T>(arr: T[], page: number, perPage: number) {
  const totalPages = Math.ceil(arr.length / perPage);
  const start = (page - 1) * perPage;
  return { page, perPage, totalPages, total: arr.length, hasNext: page < totalPages, items: arr.slice(start, start + perPage).map((x: any) => x.id) };
}
return [paginate(items, 1, 10), paginate(items, 3, 10), paginate(items, 4, 10)];`,
  },
  {
    name: "data-processing: dedupe customers by email",
    code: `const rows = [
  { id: 1, email: "Zoe@Example.com", name: "Zoë" },
  { id: 2, email: "hans@example.de", name: "Hans Müller" },
  { id: 3, email: "zoe@example.com ", name: "Zoe A." },
  { id: 4, email: "HANS@example.de", name: "H. Müller" },
  { id: 5, email: "nunez@example.es", name: "Ñúñez" },
];
const seen = new Map<string, typeof rows[number]>();
for (const r of rows) {
  const key = r.email.trim().toLowerCase();
  if (!seen.has(key)) seen.set(key, r);
}
return { unique: [...seen.values()].map(r => r.id), dropped: rows.length - seen.size };`,
  },
  {
    name: "data-processing: diff two lists of records",
    code: `const before = [{ id: 1, name: "Zoë", plan: "pro" }, { id: 2, name: "Øster", plan: "free" }, { id: 3, name: "Ñúñez", plan: "pro" }];
const after = [{ id: 1, name: "Zoë", plan: "enterprise" }, { id: 3, name: "Ñúñez", plan: "pro" }, { id: 4, name: "Müller", plan: "free" }];
const b = new Map(before.map(r => [r.id, r]));
const a = new Map(after.map(r => [r.id, r]));
return {
  added: after.filter(r => !b.has(r.id)).map(r => r.name),
  removed: before.filter(r => !a.has(r.id)).map(r => r.name),
  changed: after.filter(r => b.has(r.id) && JSON.stringify(b.get(r.id)) !== JSON.stringify(r)).map(r => ({ id: r.id, from: b.get(r.id)!.plan, to: r.plan })),
};`,
  },
  {
    name: "data-processing: currency and percentage report lines",
    code: `const regions = [
  { region: "EMEA", revenue: 1284500.5, prev: 1100000 },
  { region: "APAC", revenue: 875300, prev: 910000 },
  { region: "AMER", revenue: 2045000.75, prev: 1980000 },
];
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
const pct = new Intl.NumberFormat("en-US", { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "always" });
return regions.map(r => \`\${r.region}: \${usd.format(r.revenue)} (\${pct.format((r.revenue - r.prev) / r.prev)} vs last quarter)\`);`,
  },
  {
    name: "data-processing: share of total with rounding that sums to 100",
    code: `const counts = { open: 7, pending: 3, closed: 11 };
const total = Object.values(counts).reduce((a, b) => a + b, 0);
const raw = Object.entries(counts).map(([k, v]) => ({ k, exact: (v / total) * 100 }));
const floored = raw.map(r => ({ ...r, pct: Math.floor(r.exact) }));
let remaining = 100 - floored.reduce((s, r) => s + r.pct, 0);
floored.sort((a, b) => (b.exact % 1) - (a.exact % 1)).forEach(r => { if (remaining-- > 0) r.pct++; });
return Object.fromEntries(floored.map(r => [r.k, r.pct + "%"]));`,
  },
  {
    name: "data-processing: SLA breach detection",
    code: `const slaHours: Record<string, number> = { high: 4, medium: 24, low: 72 };
const now = new Date("2026-01-05T12:00:00Z");
const tickets = [
  { id: "T1", priority: "high", createdAt: "2026-01-05T07:00:00Z", status: "open" },
  { id: "T2", priority: "medium", createdAt: "2026-01-04T13:00:00Z", status: "open" },
  { id: "T3", priority: "low", createdAt: "2026-01-01T00:00:00Z", status: "open" },
  { id: "T4", priority: "high", createdAt: "2026-01-05T10:30:00Z", status: "open" },
  { id: "T5", priority: "low", createdAt: "2025-12-01T00:00:00Z", status: "closed" },
];
return tickets.filter(t => t.status === "open").map(t => {
  const age = (now.getTime() - Date.parse(t.createdAt)) / 36e5;
  return { id: t.id, ageHours: +age.toFixed(1), breached: age > slaHours[t.priority] };
}).filter(t => t.breached);`,
  },
  {
    name: "data-processing: summarize orders by currency",
    code: `const orders = [
  { id: 1, amount: 100, currency: "EUR" }, { id: 2, amount: 250.5, currency: "USD" },
  { id: 3, amount: 75.25, currency: "EUR" }, { id: 4, amount: 12000, currency: "JPY" }, { id: 5, amount: 19.99, currency: "USD" },
];
const totals = orders.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o.currency]: (acc[o.currency] ?? 0) + o.amount }), {});
return Object.entries(totals).map(([cur, amt]) => new Intl.NumberFormat("en-US", { style: "currency", currency: cur }).format(amt));`,
  },
  {
    name: "data-processing: convert to base currency with rates",
    code: `const rates: Record<string, number> = { USD: 1, EUR: 1.09, GBP: 1.27, JPY: 0.0067 };
const txns = [{ amt: 120, cur: "EUR" }, { amt: 80, cur: "GBP" }, { amt: 15000, cur: "JPY" }, { amt: 42.42, cur: "USD" }];
const converted = txns.map(t => ({ ...t, usd: Math.round(t.amt * rates[t.cur] * 100) / 100 }));
const total = converted.reduce((s, t) => s + t.usd, 0);
return { converted, total: total.toFixed(2), formatted: total.toLocaleString("en-US", { style: "currency", currency: "USD" }) };`,
  },
  {
    name: "data-processing: histogram buckets",
    code: `const ages = [23, 35, 41, 29, 52, 67, 18, 33, 38, 45, 29, 71, 60];
const buckets: Record<string, number> = {};
for (const a of ages) {
  const lo = Math.floor(a / 10) * 10;
  const key = lo + "-" + (lo + 9);
  buckets[key] = (buckets[key] ?? 0) + 1;
}
return Object.entries(buckets).sort(([a], [b]) => parseInt(a) - parseInt(b)).map(([k, v]) => k.padStart(5) + " " + "#".repeat(v));`,
  },
  {
    name: "data-processing: flatten nested API response",
    code: `const resp = {
  data: {
    customers: [
      { id: "c1", name: "Zoë", orders: [{ id: "o1", total: 10 }, { id: "o2", total: 25.5 }] },
      { id: "c2", name: "Øster", orders: [] },
      { id: "c3", name: "Ñúñez", orders: [{ id: "o3", total: 99.99 }] },
    ],
  },
};
return resp.data.customers.flatMap(c => c.orders.length ? c.orders.map(o => ({ customer: c.name, order: o.id, total: o.total })) : [{ customer: c.name, order: null, total: 0 }]);`,
  },
  {
    name: "data-processing: pivot sales by month and product",
    code: `const sales = [
  { month: "2026-01", product: "Basic", units: 10 }, { month: "2026-01", product: "Pro", units: 4 },
  { month: "2026-02", product: "Basic", units: 7 }, { month: "2026-02", product: "Enterprise", units: 1 },
  { month: "2026-03", product: "Pro", units: 9 },
];
const products = [...new Set(sales.map(s => s.product))].sort();
const months = [...new Set(sales.map(s => s.month))].sort();
const table = months.map(m => ({ month: m, ...Object.fromEntries(products.map(p => [p, sales.filter(s => s.month === m && s.product === p).reduce((a, s) => a + s.units, 0)])) }));
return table;`,
  },
  {
    name: "data-processing: moving average",
    code: `const daily = [120, 135, 128, 160, 155, 170, 90, 110, 145, 150];
const window = 3;
const ma = daily.map((_, i) => (i < window - 1 ? null : +(daily.slice(i - window + 1, i + 1).reduce((a, b) => a + b, 0) / window).toFixed(2)));
return ma;`,
  },
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
