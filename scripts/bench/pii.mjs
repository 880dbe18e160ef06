// PII tokenization throughput: shared/privacy/tokenize.ts bundled with esbuild and run in
// Node over a realistic ~1 MB JSON tool result (customer and ticket records with emails, phones,
// cards, IBANs, IPs, and the dates, ids, amounts and versions that must not be taken for PII).
// Measures collect + one assign + replace (tokenizeValues): warmup runs, then the median.
// Runnable alone: `node scripts/bench/pii.mjs`.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { root } from "../lib/root.mjs";

const WARMUP = 3;
const RUNS = 9;
const TARGET_BYTES = 1 << 20;
const MB = 1 << 20;

/** tokenize.ts as an ES module in a temp directory, imported. */
async function loadTokenize() {
  const bundled = await build({
    entryPoints: [join(root, "shared/privacy/tokenize.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    logLevel: "silent",
  });
  const dir = mkdtempSync(join(tmpdir(), "pii-bench-"));
  try {
    const file = join(dir, "tokenize.mjs");
    writeFileSync(file, bundled.outputFiles[0].text);
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  "Alice",
  "Bob",
  "Carla",
  "Dmitri",
  "Emma",
  "Farid",
  "Grace",
  "Hiro",
  "Ines",
  "Jonas",
  "Kemi",
  "Liam",
];
const LAST = ["Smith", "Okafor", "Müller", "Tanaka", "Dubois", "Rossi", "Novak", "García", "Larsen", "Chen"];
const COMPANIES = ["Acme Corp", "Globex GmbH", "Initech", "Umbrella SA", "Hooli", "Vandelay Industries"];
const DOMAINS = ["example.com", "mail.example.org", "corp.example.net", "example.co.uk"];

/** The ~1 MB result the bench tokenizes (deterministic). */
export function piiBenchResult() {
  const rnd = random(42);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const digits = (n) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join("");
  const nanp = () => `${2 + Math.floor(rnd() * 8)}${digits(2)}`;
  const phones = [
    () => `+1 (${nanp()}) ${nanp()}-${digits(4)}`,
    () => `${nanp()}-${nanp()}-${digits(4)}`,
    () => `+44 20 ${digits(4)} ${digits(4)}`,
    () => `+49 30 ${digits(7)}`,
    () => `06 ${digits(2)} ${digits(2)} ${digits(2)} ${digits(2)}`,
  ];
  const date = () => `2024-0${1 + Math.floor(rnd() * 9)}-${10 + Math.floor(rnd() * 18)}`;
  const amount = () => `$${Math.floor(rnd() * 9)},${digits(3)}.${digits(2)}`;
  const hex = (n) => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join("");
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const ip = () => `10.${Math.floor(rnd() * 256)}.${Math.floor(rnd() * 256)}.${1 + Math.floor(rnd() * 254)}`;
  const customers = [];
  for (let i = 0; i < 2000; i++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const email = `${first}.${last}${i}@${pick(DOMAINS)}`.toLowerCase().replace(/[^a-z0-9.@]/g, "x");
    const customer = {
      id: `cus_${String(i).padStart(6, "0")}`,
      name: `${first} ${last}`,
      email,
      phone: pick(phones)(),
      company: pick(COMPANIES),
      plan: pick(["free", "pro", "enterprise"]),
      mrr: Math.round(rnd() * 500000) / 100,
      createdAt: `${date()}T${10 + Math.floor(rnd() * 14)}:${Math.floor(rnd() * 6)}5:30.123Z`,
      address: { street: `${1 + Math.floor(rnd() * 300)} Market St`, city: "San Francisco", zip: "94107" },
      notes:
        `Renewed ${date()} via order ORD-2024-${digits(6)} for ${amount()}; ticket T-${10000 + i}; ` +
        `client v${Math.floor(rnd() * 12)}.${Math.floor(rnd() * 10)}.${Math.floor(rnd() * 10)}, ` +
        `tracking 1Z999AA1${digits(10)}, epoch ${1716200000000 + i}, ref ${uuid()}.`,
      lastLoginIp: ip(),
    };
    if (i % 10 === 0) customer.card = `4111 1111 1111 1111`;
    if (i % 25 === 0) customer.iban = "DE89 3704 0044 0532 0130 00";
    if (i % 40 === 0) customer.ssn = `${100 + (i % 500)}-${10 + (i % 80)}-${1000 + i}`;
    customers.push(customer);
  }
  const tickets = [];
  let size = JSON.stringify({ customers, tickets }).length;
  for (let i = 0; size < TARGET_BYTES; i++) {
    const c = customers[i % customers.length];
    const ticket = {
      id: `T-${20000 + i}`,
      customer: c.id,
      subject: `Login issue since ${date()} (build 4.2.${i % 10})`,
      body:
        `Hi, this is ${c.name} (${c.email}). I tried from ${c.lastLoginIp} at 12:30 and got error E${digits(4)}. ` +
        `Please call me back on ${c.phone}. Invoice INV-${digits(5)} of ${amount()} is attached.`,
      status: pick(["open", "pending", "closed"]),
      tags: ["login", `prio-${1 + (i % 3)}`],
    };
    size += JSON.stringify(ticket).length + 1;
    if (size > TARGET_BYTES) break;
    tickets.push(ticket);
  }
  // Round-tripped like a tool result parsed from JSON (flat strings, not concatenations).
  return JSON.parse(JSON.stringify({ customers, tickets }));
}

export async function runPiiThroughput() {
  const { tokenizeValues } = await loadTokenize();
  const result = piiBenchResult();
  const bytes = Buffer.byteLength(JSON.stringify(result));
  let values = 0;
  const assign = async (items) => {
    values = items.length;
    return items.map((item, i) => `[${item.kind}_${i + 1}]`);
  };
  const times = [];
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const t0 = performance.now();
    await tokenizeValues([result], assign);
    if (run >= WARMUP) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const mbPerSecond = bytes / MB / (median / 1000);
  console.log(
    `PII tokenization: ${mbPerSecond.toFixed(1)} MB/s on a ${(bytes / MB).toFixed(1)} MB JSON result ` +
      `(${values} values found, median of ${RUNS} runs)`,
  );
  return { mbPerSecond, values, bytes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runPiiThroughput().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
