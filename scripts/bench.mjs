// `npm run bench`: latency and throughput of trivial code (`return <n+2> - <n>`) through the gateway (MCP
// `tools/call execute` and REST `/v1/execute`) and through @cloudflare/codemode's DynamicWorkerExecutor,
// all served by ONE `wrangler dev` (one workerd). Secondary workers of a multi-config `wrangler dev` are
// only reachable through service bindings, so workers/bench-codemode is the primary: it routes
// /codemode/* to its CodemodeRunner entrypoint and everything else to the gateway (one hop each).
// The gateway federates the demo upstream (same workerd, DEMO service binding) and server-everything
// (a child process), and the bench then prints, from scripts/bench/*.mjs:
//   1. latency, throughput and CPU per execution at each concurrency, gateway vs codemode, the
//      phases of one execute (wall ms from Server-Timing, CPU ms from repeat runs: phases.mjs), and
//      the CPU one agent-paced execution causes, background work included (paced.mjs);
//   2. tokens of the tier-1 tools/list vs upstream tool definitions (demo, everything, a 297-tool corpus);
//   3. a task on the demo data by direct tool calls vs one execute: context tokens, same answer;
//   4. the overhead of an in-code tool call over calling the upstream directly;
//   5. PII tokenization: throughput on a 1 MB JSON result, and what it adds to the task of section 3;
//   6. Python next to TypeScript: a trivial execute over MCP, p50/p90 (BENCH_PY_REQUESTS, 50);
//   7. discovery quality: recall@1/@5 and MRR of search_tools vs a BM25 baseline on the labeled
//      intents of bench/discovery/ over the 297-tool corpus served as real upstreams, and latency;
//   8. what the agent reads: characters and tokens of ten typical answers (answers.mjs);
//   9. the quickjs and isolate engines beside codemode's executor: latency, throughput, CPU, the
//      README demo task, and the cost lines (Dynamic Workers and $ per 1,000 executions) (engines.mjs).
// Every latency request runs distinct code (a counter in it), so no compile cache can flatter the
// gateway; CPU per execution is the CPU time the wrangler dev processes used (from /proc) over a run.
// Env: BENCH_SECTIONS ("1,4" runs only those), BENCH_REQUESTS (200 per level), BENCH_WARMUP (20 per
// level), BENCH_CONCURRENCY ("1,10,50"), BENCH_CHUNKS (4: each level's requests per path run in this
// many chunks, alternating between the paths; a chunk has at least 4 requests per concurrent slot, so
// c=50 runs 4 × 200), BENCH_C1_REQUESTS (1000: c=1 gets more, one sample per request, in chunks of
// 100: with 200 in 4 chunks its p50 ratio moved ±0.1× between runs), BENCH_PHASE_REQUESTS (100),
// BENCH_LOG_LEVEL (the gateway's LOG_LEVEL, default "warn" as `npm run dev` runs it: at "info" wrangler dev
// relays each request's log line through its inspector connection, ~2.5 ms of workerd CPU per request
// that a deployed Worker does not pay; "info" measures it),
// BENCH_NETWORK_EVENTS ("on" keeps wrangler dev's inspector Network domain enabled: every fetch() a
// worker makes, such as an upstream tool call, is then reported to wrangler's Node process, ~8 ms of CPU
// per call that a deployed Worker does not pay; by default the bench disables it, scripts/bench/network-events.mjs),
// BENCH_TOOL_CALLS (100: calls per series in section 4), BENCH_PACED_ROUNDS (30: section 1c),
// WRANGLER_TOOLCHAIN (the bench's default is "current", what users and Cloudflare run; "pinned": the
// repo's wrangler; scripts/lib/toolchain.mjs).
// Prints figures only; exits non-zero when a run fails or a response is not the expected result.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runAnswers } from "./bench/answers.mjs";
import { cpuPer, groupCpu, mainThreadPer, workerdMainThreadNs } from "./bench/cpu.mjs";
import { runDefinitions } from "./bench/definitions.mjs";
import { runDiscovery } from "./bench/discovery.mjs";
import { runEngines } from "./bench/engines.mjs";
import { connectClient } from "./bench/everything.mjs";
import { gatewayClient } from "./bench/gateway-client.mjs";
import { disableNetworkEvents } from "./bench/network-events.mjs";
import { runOverhead } from "./bench/overhead.mjs";
import { runPaced } from "./bench/paced.mjs";
import { runPhases } from "./bench/phases.mjs";
import { runPrivacy } from "./bench/privacy.mjs";
import { runPython } from "./bench/python.mjs";
import { runScenario } from "./bench/scenario.mjs";
import { startStack } from "./bench/stack.mjs";
import { summarize } from "./bench/stats.mjs";
import { root } from "./lib/root.mjs";
import { useToolchain } from "./lib/toolchain.mjs";

const toolchain = await useToolchain("bench");

const REQUESTS = positiveInt("BENCH_REQUESTS", 200);
const WARMUP = positiveInt("BENCH_WARMUP", 20, true);
const LEVELS = (process.env.BENCH_CONCURRENCY ?? "1,10,50").split(",").map((s) => {
  const n = Number(s.trim());
  if (!Number.isInteger(n) || n < 1) fail(`BENCH_CONCURRENCY takes positive integers, got "${s}"`);
  return n;
});
const TOOL_CALLS = positiveInt("BENCH_TOOL_CALLS", 100);
const PACED_ROUNDS = positiveInt("BENCH_PACED_ROUNDS", 30);
const CHUNKS = positiveInt("BENCH_CHUNKS", 4);
const C1_REQUESTS = positiveInt("BENCH_C1_REQUESTS", 1000);
/** requests and chunks per path at a concurrency level */
const levelSize = (concurrency) =>
  concurrency === 1
    ? { requests: C1_REQUESTS, chunks: Math.max(CHUNKS, Math.ceil(C1_REQUESTS / 100)) }
    : { requests: REQUESTS, chunks: CHUNKS };
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || "warn";
const NETWORK_EVENTS = process.env.BENCH_NETWORK_EVENTS === "on";
const SECTIONS = new Set(
  (process.env.BENCH_SECTIONS ?? "1,2,3,4,5,6,7,8,9").split(",").map((s) => Number(s.trim())),
);
// The gateway runs from a generated config without .dev.vars (scripts/bench/stack.mjs), so this key is
// the one it checks.
const API_KEY = `bench-${randomUUID()}`;
const ADMIN_TOKEN = `bench-admin-${randomUUID()}`;
let counter = 0;
/** Trivial code that is new on every request; it returns 2. */
const gatewayCode = () => {
  const n = ++counter;
  return `return ${n + 2} - ${n}`;
};
const codemodeCode = () => `async () => { ${gatewayCode()} }`;
// Section 2's direct-calling baseline hands whole tool results back through execute; a page of 100
// tickets is ~40,000 characters, over the default 24,000-character output cap.
// Section 3 makes BENCH_TOOL_CALLS calls in one execute. The load would exceed the per-key rate
// limit and the per-team concurrency cap, which are not what is measured here.
const GATEWAY_VARS = {
  LOG_LEVEL: LOG_LEVEL,
  EXEC_MAX_OUTPUT_CHARS: "1000000",
  RATE_LIMIT_PER_MINUTE: "1000000",
  EXEC_MAX_CONCURRENT: "1000",
  PHASE_TIMING: "on",
  ...(TOOL_CALLS > 200 && { EXEC_MAX_TOOL_CALLS: String(TOOL_CALLS) }),
};

let gw; // scripts/bench/gateway-client.mjs, once the stack is up
let stopStack; // stops everything scripts/bench/stack.mjs started
/** stops of other stacks a section started (section 6), for a signal */
const stopsOnSignal = [];
let wranglerTail = () => [];
let closeInspector = () => {}; // the DevTools connection that keeps network events off
let group; // the process group of wrangler dev and its workerd processes

// ---- the three paths under test: each call returns the execution's result object ----
const sessions = []; // one MCP session (its request headers) per concurrent worker slot

const PATHS = [
  {
    name: "gateway MCP tools/call",
    prepare: async (concurrency) => {
      while (sessions.length < concurrency) sessions.push(await gw.openMcpSession());
    },
    call: async (slot) => {
      const result = await gw.rpc(sessions[slot], "tools/call", {
        name: "execute",
        arguments: { code: gatewayCode() },
      });
      return result?.structuredContent;
    },
  },
  { name: "gateway REST /v1/execute", call: () => gw.post("/v1/execute", { code: gatewayCode() }) },
  {
    name: "codemode DynamicWorkerExecutor",
    call: () => gw.post("/codemode/execute", { code: codemodeCode() }),
  },
  {
    name: "gateway MCP 2026-07-28 tools/call",
    call: async () => {
      const result = await gw.rpcModern(
        "tools/call",
        { name: "execute", arguments: { code: gatewayCode() } },
        "execute",
      );
      return result?.structuredContent;
    },
  },
];

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
  const cpuBefore = groupCpu(group);
  const threadBefore = workerdMainThreadNs(group);
  await Promise.all(Array.from({ length: concurrency }, (_, slot) => worker(slot)));
  return {
    latencies,
    seconds: (performance.now() - started) / 1000,
    cpu: cpuPer(cpuBefore, groupCpu(group), latencies.length),
    jsThread: mainThreadPer(threadBefore, workerdMainThreadNs(group), latencies.length),
  };
}

/**
 * levelSize's requests per path at `concurrency` (more when needed for its chunks), in chunks that
 * alternate between the paths (in a turning order), so that a machine getting busier or quieter
 * during the level weighs on every path alike. A chunk holds at least four requests per concurrent
 * slot (so ramp-up and drain stay small): at c=50 that is 200, so the level runs 4 × 200 per path
 * (it ran one chunk of 200 before, whose ratio moved ±0.05× between runs). Per path: all
 * latencies, the seconds its chunks took, workerd CPU ms per execution.
 */
async function interleaved(concurrency) {
  const { requests, chunks } = levelSize(concurrency);
  const chunk = Math.max(Math.ceil(requests / chunks), concurrency * 4);
  const total = chunk * chunks;
  const totals = PATHS.map(() => ({ latencies: [], seconds: 0, cpuMs: 0, jsThreadMs: 0, chunkRates: [] }));
  for (let done = 0, round = 0; done < total; done += chunk, round++) {
    const count = Math.min(chunk, total - done);
    // The order turns every chunk, so no path always follows the same one (whose leftover
    // background work, such as the gateway's audit write, would otherwise always land on it).
    for (let k = 0; k < PATHS.length; k++) {
      const i = (k + round) % PATHS.length;
      const measured = await run(PATHS[i], concurrency, count);
      totals[i].latencies.push(...measured.latencies);
      totals[i].seconds += measured.seconds;
      totals[i].chunkRates.push(measured.latencies.length / measured.seconds);
      totals[i].cpuMs += measured.cpu.workerd * measured.latencies.length;
      totals[i].jsThreadMs += measured.jsThread * measured.latencies.length;
    }
  }
  return totals.map((t) => ({
    latencies: t.latencies,
    seconds: t.seconds,
    cpu: t.cpuMs / t.latencies.length,
    jsThread: t.jsThreadMs / t.latencies.length,
    chunkRates: t.chunkRates,
  }));
}

/** The lowest and highest exec/s ratio of `a` to `b` over the chunks they ran in turn: a run's own spread. */
function chunkSpread(a, b) {
  const ratios = a.chunkRates.map((rate, k) => rate / b.chunkRates[k]);
  return `chunks ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}x`;
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

async function latencies() {
  console.log(
    `\n== 1. Latency, throughput and CPU: ${REQUESTS} requests per path and level (c=1: ${C1_REQUESTS} in ` +
      `${levelSize(1).chunks} chunks) after ${WARMUP} warm-up, in ${CHUNKS} chunks alternating between the paths ` +
      `(a chunk has at least 4 requests per concurrent slot, so a level may run more: c=50 ${CHUNKS} × 200)`,
  );
  console.log(`code "return <n+2> - <n>", n new on every request (no two requests run the same code)`);
  console.log("every request: wrangler proxy -> bench router -> service binding -> worker -> isolate");
  console.log(
    "CPU ms/exec: CPU time of the workerd processes (all workers of this run) / executions, from /proc;\n" +
      "JS ms/exec: CPU time of the thread that runs the workers' JavaScript (workerd runs all of it on one\n" +
      "thread per process), which is what bounds exec/s once that thread is busy\n",
  );
  const ratios = [];
  const modernRatios = [];
  console.log(line("path", "conc", "p50 ms", "p90 ms", "p99 ms", "exec/s", "CPU ms", "JS ms"));
  for (const concurrency of LEVELS) {
    const results = [];
    for (const path of PATHS) {
      await path.prepare?.(concurrency);
      if (WARMUP > 0) await run(path, concurrency, WARMUP);
    }
    for (const [i, measured] of (await interleaved(concurrency)).entries()) {
      const s = {
        ...summarize(measured),
        cpu: measured.cpu,
        jsThread: measured.jsThread,
        chunkRates: measured.chunkRates,
      };
      results.push(s);
      console.log(line(PATHS[i].name, concurrency, s.p50, s.p90, s.p99, s.perSecond, s.cpu, s.jsThread));
    }
    const [mcp, , cm, modern] = results;
    modernRatios.push(
      `  c=${String(concurrency).padEnd(3)} p50 ${(modern.p50 / cm.p50).toFixed(2)}x (${modern.p50.toFixed(1)} vs ` +
        `${cm.p50.toFixed(1)} ms), exec/s ${(modern.perSecond / cm.perSecond).toFixed(2)}x; vs 2025 MCP p50 ` +
        `${(modern.p50 / mcp.p50).toFixed(2)}x, exec/s ${(modern.perSecond / mcp.perSecond).toFixed(2)}x`,
    );
    ratios.push(
      `  c=${String(concurrency).padEnd(3)} p50 ${(mcp.p50 / cm.p50).toFixed(2)}x (${mcp.p50.toFixed(1)} vs ` +
        `${cm.p50.toFixed(1)} ms), exec/s ${(mcp.perSecond / cm.perSecond).toFixed(2)}x ` +
        `(${mcp.perSecond.toFixed(1)} vs ${cm.perSecond.toFixed(1)}; ${chunkSpread(mcp, cm)}), CPU/exec ${(mcp.cpu / cm.cpu).toFixed(2)}x ` +
        `(${mcp.cpu.toFixed(2)} vs ${cm.cpu.toFixed(2)} ms), JS thread/exec ${(mcp.jsThread / cm.jsThread).toFixed(2)}x ` +
        `(${mcp.jsThread.toFixed(2)} vs ${cm.jsThread.toFixed(2)} ms)`,
    );
  }
  console.log("\ngateway MCP vs codemode executor (p50 and throughput; >1x p50, <1x exec/s: MCP slower)");
  console.log(ratios.join("\n"));
  console.log(
    "gateway MCP 2026-07-28 (stateless, through the SDK's handler) vs codemode executor, and vs 2025 MCP",
  );
  console.log(modernRatios.join("\n"));
}

async function main() {
  console.log(
    "starting server-everything and wrangler dev (bench-codemode + gateway + demo upstream in one workerd)...",
  );
  const stack = await startStack({
    apiKey: API_KEY,
    adminToken: ADMIN_TOKEN,
    vars: GATEWAY_VARS,
    track: (stop) => {
      stopStack = stop;
    },
  });
  wranglerTail = () => stack.wrangler.tail;
  if (!NETWORK_EVENTS) closeInspector = await disableNetworkEvents(stack.wrangler.inspectorPort);
  group = stack.wrangler.child.pid;
  gw = gatewayClient(stack.base, API_KEY);
  const codemodeLive = await fetch(`${stack.base}/codemode/live`).then((r) => r.json());
  if (codemodeLive.worker !== "bench-codemode") throw new Error("the bench-codemode worker is not reachable");
  const versions = `wrangler ${toolchain.wranglerVersion}, @cloudflare/codemode ${version("@cloudflare/codemode")}`;
  console.log(
    `${versions}, node ${process.version}; gateway auth: ${stack.upstreams.health.auth}; LOG_LEVEL ${LOG_LEVEL}${process.env.BENCH_LOG_LEVEL ? "" : " (as npm run dev; BENCH_LOG_LEVEL=info adds the request log line)"}; ` +
      `inspector network events ${NETWORK_EVENTS ? "on (as wrangler dev runs)" : "off (a deployed Worker has no inspector; BENCH_NETWORK_EVENTS=on keeps them)"}`,
  );
  const upstreams = stack.upstreams.ready.upstreams.map((u) => `${u.name} (${u.state}, ${u.tools} tools)`);
  console.log(
    `gateway upstreams (/ready): ${upstreams.join(", ")}; EXEC_MAX_OUTPUT_CHARS ${GATEWAY_VARS.EXEC_MAX_OUTPUT_CHARS}`,
  );

  if (SECTIONS.has(1)) {
    await latencies();
    await runPhases({
      gw,
      adminToken: ADMIN_TOKEN,
      group,
      code: gatewayCode,
      label: "distinct trivial code",
    });
    const paced = [PATHS[0], PATHS[2]].map((path) => ({ name: path.name, call: () => path.call(0) }));
    await runPaced({ paths: paced, group, rounds: PACED_ROUNDS });
  }

  const session = await gw.openMcpSession();
  const everythingClient = await connectClient(stack.everything.url);
  try {
    if (SECTIONS.has(2) || SECTIONS.has(3)) {
      const { tier1Tokens, demo } = await runDefinitions({ gw, session, everythingClient });
      if (SECTIONS.has(3)) await runScenario({ gw, session, tier1Tokens, demoDefinitions: demo });
    }
    if (SECTIONS.has(4)) await runOverhead({ gw, everythingClient, calls: TOOL_CALLS });
    if (SECTIONS.has(5)) await runPrivacy({ base: stack.base, apiKey: API_KEY, adminToken: ADMIN_TOKEN });
    if (SECTIONS.has(7)) await runDiscovery({ base: stack.base, adminToken: ADMIN_TOKEN });
    if (SECTIONS.has(8)) await runAnswers({ base: stack.base, adminToken: ADMIN_TOKEN });
    if (SECTIONS.has(9))
      await runEngines({
        base: stack.base,
        adminToken: ADMIN_TOKEN,
        group,
        requests: Math.min(REQUESTS, 200),
        codemode: gw,
      });
    // Python on a stack of its own, the two-process one of `npm run dev` (scripts/bench/python.mjs says why).
    if (SECTIONS.has(6)) await runPython({ track: (stop) => stopsOnSignal.push(stop) });
  } finally {
    await everythingClient.close().catch(() => {});
  }
}

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\nbench: ${signal}, stopping wrangler dev and server-everything`);
    Promise.allSettled([stopStack?.(), ...stopsOnSignal.map((stop) => stop())]).finally(() =>
      process.exit(130),
    );
  });
}

main().then(
  async () => {
    closeInspector();
    await stopStack?.();
    process.exit(0);
  },
  async (err) => {
    if (interrupted) return; // the signal handler stops everything and exits
    console.error(`\nbench failed: ${err instanceof Error ? (err.stack ?? err.message) : err}`);
    const tail = err?.wranglerTail ?? wranglerTail();
    if (tail.length) console.error(`--- last wrangler dev output ---\n${tail.join("\n")}`);
    closeInspector();
    await stopStack?.();
    process.exit(1);
  },
);
