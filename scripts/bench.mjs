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
//      README demo task, and the cost lines (Dynamic Workers, KV and Durable Object calls, $ per 1,000
//      executions) (engines.mjs, cost.mjs);
//  10. the peak memory of one warm worker under memory attacks, four at once (memory.mjs);
//  11. discovery at 1,000, 5,000 and 10,000 tools from real API descriptions: index build, heap,
//      search_tools p50/p99, recall beside BM25, tier-1 tokens (discovery-scale.mjs; BENCH_DISCOVERY_SIZES,
//      BENCH_DISCOVERY_ROUNDS; the first run installs the descriptions' packages, ~800 MB, into node_modules/.cache);
//  12. traces: CPU per execution with tracing off, on at 100 % and at 1 % sampling (traces.mjs);
// and last, every figure README.md quotes, from this run, with the machine's cores (summary.mjs).
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
import { runDefinitions, tier1Tools } from "./bench/definitions.mjs";
import { runDiscovery } from "./bench/discovery.mjs";
import { runDiscoveryScale } from "./bench/discovery-scale.mjs";
import { runEngines } from "./bench/engines.mjs";
import { connectClient } from "./bench/everything.mjs";
import { gatewayClient } from "./bench/gateway-client.mjs";
import { latencyPaths, runLatency } from "./bench/latency.mjs";
import { runMemory } from "./bench/memory.mjs";
import { disableNetworkEvents } from "./bench/network-events.mjs";
import { runOverhead } from "./bench/overhead.mjs";
import { runPaced } from "./bench/paced.mjs";
import { runPhases } from "./bench/phases.mjs";
import { runPrivacy } from "./bench/privacy.mjs";
import { runPython } from "./bench/python.mjs";
import { runScenario } from "./bench/scenario.mjs";
import { startStack } from "./bench/stack.mjs";
import { machine, printSummary } from "./bench/summary.mjs";
import { runTraces } from "./bench/traces.mjs";
import { root } from "./lib/root.mjs";
import { countTokens } from "./lib/tokens.mjs";
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
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || "warn";
const NETWORK_EVENTS = process.env.BENCH_NETWORK_EVENTS === "on";
const SECTIONS = new Set(
  (process.env.BENCH_SECTIONS ?? "1,2,3,4,5,6,7,8,9,10,11,12").split(",").map((s) => Number(s.trim())),
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

async function main() {
  const startedOn = machine();
  console.log(`machine: ${startedOn}`);
  console.log(
    "starting server-everything and wrangler dev (bench-codemode + gateway + demo upstream in one workerd)...",
  );
  /** each section's result, for the summary of the README's figures */
  const figures = {};
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
    const paths = latencyPaths(gw, gatewayCode);
    figures.latency = await runLatency({
      paths,
      group,
      levels: LEVELS,
      requests: REQUESTS,
      warmup: WARMUP,
      chunks: CHUNKS,
      c1Requests: C1_REQUESTS,
    });
    await runPhases({
      gw,
      adminToken: ADMIN_TOKEN,
      group,
      code: gatewayCode,
      label: "distinct trivial code",
    });
    const paced = [paths[0], paths[2]].map((path) => ({ name: path.name, call: () => path.call(0) }));
    figures.paced = await runPaced({ paths: paced, group, rounds: PACED_ROUNDS });
  }

  const session = await gw.openMcpSession();
  const everythingClient = await connectClient(stack.everything.url);
  try {
    if (SECTIONS.has(2) || SECTIONS.has(3)) {
      figures.definitions = await runDefinitions({ gw, session, everythingClient });
      const { tier1Tokens, demo } = figures.definitions;
      if (SECTIONS.has(3))
        figures.scenario = await runScenario({ gw, session, tier1Tokens, demoDefinitions: demo });
    }
    if (SECTIONS.has(4)) await runOverhead({ gw, everythingClient, calls: TOOL_CALLS });
    if (SECTIONS.has(5)) await runPrivacy({ base: stack.base, apiKey: API_KEY, adminToken: ADMIN_TOKEN });
    if (SECTIONS.has(7)) await runDiscovery({ base: stack.base, adminToken: ADMIN_TOKEN });
    if (SECTIONS.has(8)) await runAnswers({ base: stack.base, adminToken: ADMIN_TOKEN });
    if (SECTIONS.has(9))
      figures.engines = await runEngines({
        base: stack.base,
        adminToken: ADMIN_TOKEN,
        group,
        requests: Math.min(REQUESTS, 200),
        chunks: CHUNKS,
        codemode: gw,
      });
    if (SECTIONS.has(11))
      runDiscoveryScale({
        tier1Tokens: countTokens(JSON.stringify(await tier1Tools(gw, session))),
        sizes: process.env.BENCH_DISCOVERY_SIZES,
        rounds: process.env.BENCH_DISCOVERY_ROUNDS,
      });
    if (SECTIONS.has(12))
      await runTraces({
        off: { base: stack.base, apiKey: API_KEY, group },
        vars: GATEWAY_VARS,
        requests: Math.min(REQUESTS, 200),
        chunks: CHUNKS,
        track: (stop) => stopsOnSignal.push(stop),
      });
    // Python on a stack of its own, the two-process one of `npm run dev` (scripts/bench/python.mjs says why).
    if (SECTIONS.has(6)) figures.python = await runPython({ track: (stop) => stopsOnSignal.push(stop) });
    if (SECTIONS.has(10)) figures.memory = await runMemory({ track: (stop) => stopsOnSignal.push(stop) });
  } finally {
    await everythingClient.close().catch(() => {});
  }
  printSummary(figures, SECTIONS, startedOn);
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
