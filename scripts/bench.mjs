// `npm run bench`: latency and throughput of trivial code (`return 1 + 1`) through the gateway (MCP
// `tools/call execute` and REST `/v1/execute`) and through @cloudflare/codemode's DynamicWorkerExecutor,
// all served by ONE `wrangler dev` (one workerd). Secondary workers of a multi-config `wrangler dev` are
// only reachable through service bindings, so workers/bench-codemode is the primary: it routes
// /codemode/* to its CodemodeRunner entrypoint and everything else to the gateway (one hop each).
// Env: BENCH_REQUESTS (200 per level), BENCH_WARMUP (20 per level), BENCH_CONCURRENCY ("1,10,50"),
// BENCH_LOG_LEVEL (the gateway's LOG_LEVEL; "warn" drops the per-request log line wrangler dev relays).
// Prints figures only; exits non-zero when a run fails or a response is not the expected result.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readDevKey } from "./lib/dev-vars.mjs";
import { countTokens } from "./lib/tokens.mjs";
import { root, startWranglerDev } from "./lib/wrangler-dev.mjs";

const REQUESTS = positiveInt("BENCH_REQUESTS", 200);
const WARMUP = positiveInt("BENCH_WARMUP", 20, true);
const LEVELS = (process.env.BENCH_CONCURRENCY ?? "1,10,50").split(",").map((s) => {
  const n = Number(s.trim());
  if (!Number.isInteger(n) || n < 1) fail(`BENCH_CONCURRENCY takes positive integers, got "${s}"`);
  return n;
});
// wrangler dev prefers .dev.vars (written by `npm run dev`) for the gateway, so use its key when it exists.
const API_KEY = readDevKey() ?? `bench-${randomUUID()}`;
const GATEWAY_CODE = "return 1 + 1";
const CODEMODE_CODE = "async () => { return 1 + 1 }";

let base = "";
let wrangler; // the running `wrangler dev` (scripts/lib/wrangler-dev.mjs)

// ---- the three paths under test: each call returns the execution's result object ----
const sessions = []; // one MCP session (its request headers) per concurrent worker slot
let rpcId = 0;

const PATHS = [
  {
    name: "gateway MCP tools/call",
    prepare: async (concurrency) => {
      while (sessions.length < concurrency) sessions.push(await openMcpSession());
    },
    call: async (slot) => {
      const params = { name: "execute", arguments: { code: GATEWAY_CODE } };
      const call = { jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params };
      const body = await post("/mcp", call, sessions[slot]);
      if (body.error) throw new Error(`MCP tools/call failed: ${JSON.stringify(body.error)}`);
      return body.result?.structuredContent;
    },
  },
  { name: "gateway REST /v1/execute", call: () => post("/v1/execute", { code: GATEWAY_CODE }) },
  { name: "codemode DynamicWorkerExecutor", call: () => post("/codemode/execute", { code: CODEMODE_CODE }) },
];

async function post(path, payload, headers = {}) {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": API_KEY, ...headers },
    body: JSON.stringify(payload),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 400)}`);
  try {
    return { headers: res.headers, ...(text ? JSON.parse(text) : {}) };
  } catch {
    throw new Error(`POST ${path} answered with non-JSON: ${text.slice(0, 400)}`);
  }
}

async function openMcpSession() {
  const headers = { accept: "application/json, text/event-stream" };
  const clientInfo = { name: "edge-code-mcp-bench", version: "1" };
  const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo };
  const init = await post("/mcp", { jsonrpc: "2.0", id: ++rpcId, method: "initialize", params }, headers);
  const id = init.headers.get("mcp-session-id");
  if (!id || !init.result) throw new Error(`MCP initialize gave no session: ${JSON.stringify(init)}`);
  const session = { ...headers, "mcp-session-id": id, "mcp-protocol-version": init.result.protocolVersion };
  await post("/mcp", { jsonrpc: "2.0", method: "notifications/initialized" }, session);
  return session;
}

// ---- measurement ----
async function run(path, concurrency, count) {
  const latencies = [];
  let issued = 0;
  const started = performance.now();
  const worker = async (slot) => {
    while (issued < count) {
      issued++;
      const t0 = performance.now();
      const out = await path.call(slot);
      latencies.push(performance.now() - t0);
      if (out?.result !== 2 || out.error) {
        const { headers: _, ...shown } = out ?? {};
        throw new Error(`${path.name}: expected result 2, got ${JSON.stringify(shown).slice(0, 400)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, slot) => worker(slot)));
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

function summarize({ latencies, seconds }) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { p50: pct(50), p90: pct(90), p99: pct(99), perSecond: sorted.length / seconds };
}

// ---- wrangler dev lifecycle ----
async function startWrangler() {
  // `--var` only reaches the primary worker, so DEV_API_KEY goes in as a process-env secret, which
  // wrangler hands to every worker; the child gets a minimal environment so nothing else leaks in.
  const env = {
    CLOUDFLARE_INCLUDE_PROCESS_ENV: "true",
    DEV_API_KEY: API_KEY,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL,
  };
  for (const key of Object.keys(process.env)) {
    if (!["PATH", "HOME", "TMPDIR", "XDG_CONFIG_HOME"].includes(key)) env[key] = undefined;
  }
  const configs = ["workers/bench-codemode/wrangler.toml", "wrangler.toml"];
  wrangler = await startWranglerDev({ configs, env, persist: "temp" });
  base = wrangler.url;
}

async function stopWrangler() {
  const running = wrangler;
  wrangler = undefined;
  await running?.stop();
}

// ---- main ----
function positiveInt(name, fallback, allowZero = false) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1))
    fail(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

const version = (pkg) => JSON.parse(readFileSync(join(root, "node_modules", pkg, "package.json"))).version;
const cells = (...values) =>
  values.map((v) => (typeof v === "number" ? v.toFixed(1) : v).padStart(9)).join("");
const line = (name, concurrency, ...values) =>
  `${name.padEnd(32)}${String(concurrency).padStart(5)}${cells(...values)}`;

async function main() {
  console.log(`starting wrangler dev (gateway + bench-codemode in one workerd process)...`);
  await startWrangler();
  const health = await (await fetch(`${base}/health`)).json();
  const codemodeLive = await fetch(`${base}/codemode/live`).then((r) => r.json());
  if (codemodeLive.worker !== "bench-codemode") throw new Error("the bench-codemode worker is not reachable");
  const versions = `wrangler ${version("wrangler")}, @cloudflare/codemode ${version("@cloudflare/codemode")}`;
  console.log(
    `${versions}, node ${process.version}; gateway auth: ${health.auth}; LOG_LEVEL ${process.env.BENCH_LOG_LEVEL ?? "info (default)"}`,
  );
  const session = await openMcpSession();
  const listed = await post("/mcp", { jsonrpc: "2.0", id: ++rpcId, method: "tools/list" }, session);
  const tier1 = JSON.stringify(listed.result.tools);
  console.log(
    `tier-1 tools/list: ${listed.result.tools.length} tools, ${tier1.length} chars, ${countTokens(tier1)} tokens (cl100k)`,
  );
  console.log(`${REQUESTS} requests per level after ${WARMUP} warm-up; code "${GATEWAY_CODE}"`);
  console.log("every request: wrangler proxy -> bench router -> service binding -> worker -> isolate\n");

  const ratios = [];
  console.log(line("path", "conc", "p50 ms", "p90 ms", "p99 ms", "exec/s"));
  for (const concurrency of LEVELS) {
    const results = [];
    for (const path of PATHS) {
      await path.prepare?.(concurrency);
      if (WARMUP > 0) await run(path, concurrency, WARMUP);
      const s = summarize(await run(path, concurrency, REQUESTS));
      results.push(s);
      console.log(line(path.name, concurrency, s.p50, s.p90, s.p99, s.perSecond));
    }
    const [mcp, , cm] = results;
    ratios.push(
      `  c=${String(concurrency).padEnd(3)} p50 ${(mcp.p50 / cm.p50).toFixed(2)}x (${mcp.p50.toFixed(1)} vs ` +
        `${cm.p50.toFixed(1)} ms), exec/s ${(mcp.perSecond / cm.perSecond).toFixed(2)}x ` +
        `(${mcp.perSecond.toFixed(1)} vs ${cm.perSecond.toFixed(1)})`,
    );
  }
  console.log("\ngateway MCP vs codemode executor (p50 and throughput; >1x p50, <1x exec/s: MCP slower)");
  console.log(ratios.join("\n"));
}

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\nbench: ${signal}, stopping wrangler dev`);
    stopWrangler().finally(() => process.exit(130));
  });
}

main().then(
  async () => {
    await stopWrangler();
    process.exit(0);
  },
  async (err) => {
    if (interrupted) return; // the signal handler stops wrangler and exits
    console.error(`\nbench failed: ${err instanceof Error ? err.message : err}`);
    if (wrangler?.tail.length) console.error(`--- last wrangler dev output ---\n${wrangler.tail.join("\n")}`);
    await stopWrangler();
    process.exit(1);
  },
);
