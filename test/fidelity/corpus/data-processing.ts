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
] satisfies Snippet[];
