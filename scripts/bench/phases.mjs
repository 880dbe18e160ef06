// Section 1b: where one `execute` over MCP spends its time. The gateway runs with PHASE_TIMING=on and
// answers requests carrying `X-Phase-Timing: <ADMIN_TOKEN>` with a Server-Timing header (wall ms per
// phase). CPU per phase: the same requests with `X-Phase-Repeat: <phase>:K` run that phase K extra
// times; the CPU the workerd processes used per request (from /proc) minus the plain run's, over K.
// Then the work an execute leaves for after its answer, by when it runs (paced.mjs's reading).
import { cpuPer, groupCpu } from "./cpu.mjs";
import { causedCpu, QUIET_MS } from "./paced.mjs";
import { percentile, table } from "./stats.mjs";

const RUNS = Number(process.env.BENCH_PHASE_REQUESTS ?? 100);
const REPEAT = 10;

function parseTiming(header) {
  const out = {};
  for (const part of (header ?? "").split(",")) {
    const m = /^\s*([a-z_]+);dur=([\d.]+)/.exec(part);
    if (m) out[m[1]] = (out[m[1]] ?? 0) + Number(m[2]);
  }
  return out;
}

async function series({ gw, session, adminToken, code, repeat, runs = RUNS }) {
  const headers = { ...session, "x-phase-timing": adminToken, ...(repeat && { "x-phase-repeat": repeat }) };
  const timings = [];
  for (let i = 0; i < runs; i++) {
    const body = {
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { name: "execute", arguments: { code: code() } },
    };
    const res = await gw.post("/mcp", body, headers);
    if (res.result?.structuredContent?.result !== 2)
      throw new Error(`phase run: ${JSON.stringify(res).slice(0, 300)}`);
    timings.push(parseTiming(res.headers.get("server-timing")));
  }
  return timings;
}

const CHUNK = 25;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** Workerd CPU ms per request of `runs` requests of `series`. */
async function cpuOf(group, run) {
  const before = groupCpu(group);
  const timings = await run();
  return { cpu: cpuPer(before, groupCpu(group), timings.length).workerd, timings };
}

/**
 * Wall ms per phase (p50, mean; workerd's clock moves in 1 ms steps and stands still during pure
 * computation, so the mean over many requests is the better figure) and CPU ms per phase: chunks of
 * plain and repeat requests alternate, so drift (heap growth, other load) hits both alike.
 */
export async function runPhases({ gw, adminToken, group, code, label }) {
  const session = await gw.openMcpSession();
  const opts = { gw, session, adminToken, code };
  await series(opts);
  const plain = await cpuOf(group, () => series(opts));
  const names = [...new Set(plain.timings.flatMap((t) => Object.keys(t)))];
  const cpu = {};
  for (const name of names) {
    if (["total", "body", "mcp_handle", "admit", "slot"].includes(name)) continue;
    let base = 0;
    let repeated = 0;
    for (let i = 0; i < RUNS / CHUNK; i++) {
      base += (await cpuOf(group, () => series({ ...opts, runs: CHUNK }))).cpu;
      repeated += (await cpuOf(group, () => series({ ...opts, runs: CHUNK, repeat: `${name}:${REPEAT}` })))
        .cpu;
    }
    cpu[name] = (repeated - base) / (RUNS / CHUNK) / REPEAT;
  }
  const rows = names.map((name) => {
    const wall = plain.timings.map((t) => t[name] ?? 0);
    const c = cpu[name];
    return [
      name,
      percentile(wall, 50).toFixed(1),
      mean(wall).toFixed(2),
      c === undefined ? "-" : c.toFixed(2),
    ];
  });
  console.log(
    `\n== 1b. Phases of one MCP execute (${label}), c=1, ${RUNS} requests; CPU: ${REPEAT} extra runs of the phase, alternating with plain runs`,
  );
  console.log(table(["phase", "wall p50", "wall mean", "CPU ms"], rows));
  console.log(`workerd CPU per timed request: ${plain.cpu.toFixed(2)} ms`);
  await afterAnswer(gw, session, group, code);
}

/** Read at these ms after the answer: what each window holds is printed with it. */
const AFTER_MS = [0, 10, 50, QUIET_MS];
const AFTER_RUNS = 30;

/**
 * The workerd CPU an execute causes after its answer (its deferred work: the warm worker's next
 * interpreter, the audit entries' hashing, the limiter's write-behind), by window: executions
 * one at a time after QUIET_MS of quiet, medians of AFTER_RUNS.
 */
async function afterAnswer(gw, session, group, code) {
  const path = {
    name: "MCP execute",
    call: async () =>
      (await gw.rpc(session, "tools/call", { name: "execute", arguments: { code: code() } }))
        ?.structuredContent,
  };
  const reads = AFTER_MS.map(() => []);
  for (let i = 0; i < AFTER_RUNS; i++) {
    const cpu = await causedCpu(path, group, AFTER_MS);
    for (const [k, ms] of cpu.entries()) reads[k].push(k === 0 ? ms : ms - cpu[k - 1]);
  }
  const held = [
    "the execution (a warm worker's next interpreter, made a macrotask after its report, mostly lands here too)",
    "the warm worker's memory zeroing and next interpreter, when after the answer",
    "the audit entries' hashing (the lease and the entries wait for the next admit, up to 1 s: audit/record.ts)",
    "what is left: the limiter's write-behind when nothing saved it (1.2 s: team-limits.ts), timers, GC",
  ];
  console.log(
    `after the answer: ${AFTER_RUNS} executes one at a time, ${QUIET_MS} ms of quiet before each; median workerd CPU ms per window`,
  );
  const rows = AFTER_MS.map((to, k) => [
    `${k === 0 ? "to the answer" : `+${AFTER_MS[k - 1]}-${to} ms`}: ${held[k]}`,
    percentile(reads[k], 50).toFixed(2),
  ]);
  console.log(table(["window: what runs then", "CPU ms"], rows));
}
