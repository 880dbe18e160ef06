// Section 1 of `npm run bench`: latency, throughput and CPU per execution of trivial code at each
// concurrency level, on each path (gateway MCP and REST, codemode's executor, gateway MCP 2026-07-28),
// the paths taking turns in chunks (scripts/bench.mjs lists the variables that size it). Section 9
// (engines.mjs) runs its paths with the same `interleaved`.
import { setTimeout as sleep } from "node:timers/promises";
import { cpuPer, groupCpu, mainThreadPer, workerdMainThreadNs } from "./cpu.mjs";
import { summarize } from "./stats.mjs";

/**
 * The paths under test: each call returns the execution's result object. `code()` is new trivial
 * code on every call (it returns 2); codemode's executor gets it as an async arrow function.
 * @param {ReturnType<typeof import("./gateway-client.mjs").gatewayClient>} gw
 * @param {() => string} code
 */
export function latencyPaths(gw, code) {
  const sessions = []; // one MCP session (its request headers) per concurrent slot
  return [
    {
      name: "gateway MCP tools/call",
      prepare: async (concurrency) => {
        while (sessions.length < concurrency) sessions.push(await gw.openMcpSession());
      },
      call: async (slot) => {
        const result = await gw.rpc(sessions[slot], "tools/call", {
          name: "execute",
          arguments: { code: code() },
        });
        return result?.structuredContent;
      },
    },
    { name: "gateway REST /v1/execute", call: () => gw.post("/v1/execute", { code: code() }) },
    {
      name: "codemode DynamicWorkerExecutor",
      call: () => gw.post("/codemode/execute", { code: `async () => { ${code()} }` }),
    },
    {
      name: "gateway MCP 2026-07-28 tools/call",
      call: async () => {
        const result = await gw.rpcModern(
          "tools/call",
          { name: "execute", arguments: { code: code() } },
          "execute",
        );
        return result?.structuredContent;
      },
    },
  ];
}

/**
 * `count` executions on `path`, `concurrency` at a time: latencies, seconds, CPU per execution. Each
 * answer must pass `path.check` (default: the result is 2). With `settleMs`, the CPU window (and
 * `counters`, cumulative figures read before and after) stays open that long after the last answer,
 * so work the path defers past its answers is counted on it, not on the next path.
 */
export async function measure(path, concurrency, count, group, { settleMs = 0, counters } = {}) {
  const check = path.check ?? ((result) => result === 2);
  const latencies = [];
  let issued = 0;
  const drive = async (slot) => {
    while (issued < count) {
      issued++;
      const t0 = performance.now();
      const out = await path.call(slot);
      latencies.push(performance.now() - t0);
      if (out?.error || !check(out?.result)) {
        const { headers: _, ...shown } = out ?? {};
        throw new Error(`${path.name}: unexpected answer ${JSON.stringify(shown).slice(0, 400)}`);
      }
    }
  };
  const countersBefore = await counters?.();
  const cpuBefore = groupCpu(group);
  const threadBefore = workerdMainThreadNs(group);
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, slot) => drive(slot)));
  const seconds = (performance.now() - started) / 1000;
  if (settleMs > 0) await sleep(settleMs);
  const measured = {
    latencies,
    seconds,
    cpu: cpuPer(cpuBefore, groupCpu(group), latencies.length),
    jsThread: mainThreadPer(threadBefore, workerdMainThreadNs(group), latencies.length),
  };
  if (!counters) return measured;
  const after = await counters();
  const delta = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (countersBefore[k] ?? 0)]));
  return { ...measured, counters: delta };
}

/**
 * `requests` per path at `concurrency` (more when needed for its chunks), in chunks that
 * alternate between the paths (in a turning order), so that a machine getting busier or quieter
 * during the level weighs on every path alike. A chunk holds at least four requests per concurrent
 * slot (so ramp-up and drain stay small): at c=50 that is 200, so the level runs 4 × 200 per path
 * (it ran one chunk of 200 before, whose ratio moved ±0.05× between runs). Per path: all
 * latencies, the seconds its chunks took, workerd CPU ms per execution (and the sum of each
 * `counters` figure's change over its chunks). `perSlot` lowers the four requests per slot (section 9
 * alternates its demo task one execution at a time); `settleMs` and `counters` go to `measure`.
 */
export async function interleaved(paths, concurrency, { requests, chunks, perSlot = 4, ...window }, group) {
  const chunk = Math.max(Math.ceil(requests / chunks), concurrency * perSlot);
  const total = chunk * chunks;
  const totals = paths.map(() => ({
    latencies: [],
    seconds: 0,
    cpuMs: 0,
    jsThreadMs: 0,
    chunkRates: [],
    counters: {},
  }));
  for (let done = 0, round = 0; done < total; done += chunk, round++) {
    const count = Math.min(chunk, total - done);
    // The order turns every chunk, so no path always follows the same one (whose leftover
    // background work, such as the gateway's audit write, would otherwise always land on it).
    for (let k = 0; k < paths.length; k++) {
      const i = (k + round) % paths.length;
      const measured = await measure(paths[i], concurrency, count, group, window);
      const t = totals[i];
      t.latencies.push(...measured.latencies);
      t.seconds += measured.seconds;
      t.chunkRates.push(measured.latencies.length / measured.seconds);
      t.cpuMs += measured.cpu.workerd * measured.latencies.length;
      t.jsThreadMs += measured.jsThread * measured.latencies.length;
      for (const [name, n] of Object.entries(measured.counters ?? {}))
        t.counters[name] = (t.counters[name] ?? 0) + n;
    }
  }
  return totals.map((t) => ({
    latencies: t.latencies,
    seconds: t.seconds,
    cpu: t.cpuMs / t.latencies.length,
    jsThread: t.jsThreadMs / t.latencies.length,
    chunkRates: t.chunkRates,
    counters: t.counters,
  }));
}

/** The lowest and highest exec/s ratio of `a` to `b` over the chunks they ran in turn: a run's own spread. */
function chunkSpread(a, b) {
  const ratios = a.chunkRates.map((rate, k) => rate / b.chunkRates[k]);
  return `chunks ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}x`;
}

const cells = (...values) =>
  values.map((v) => (typeof v === "number" ? v.toFixed(1) : v).padStart(9)).join("");
const line = (name, concurrency, ...values) =>
  `${name.padEnd(32)}${String(concurrency).padStart(5)}${cells(...values)}`;

/**
 * @param {{ paths: ReturnType<typeof latencyPaths>, group: number, levels: number[], requests: number,
 *   warmup: number, chunks: number, c1Requests: number }} o
 */
export async function runLatency({ paths, group, levels, requests, warmup, chunks, c1Requests }) {
  /** requests and chunks per path at a concurrency level */
  const levelSize = (concurrency) =>
    concurrency === 1
      ? { requests: c1Requests, chunks: Math.max(chunks, Math.ceil(c1Requests / 100)) }
      : { requests, chunks };
  console.log(
    `\n== 1. Latency, throughput and CPU: ${requests} requests per path and level (c=1: ${c1Requests} in ` +
      `${levelSize(1).chunks} chunks) after ${warmup} warm-up, in ${chunks} chunks alternating between the paths ` +
      `(a chunk has at least 4 requests per concurrent slot, so a level may run more: c=50 ${chunks} × 200)`,
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
  const levelsVsCodemode = [];
  console.log(line("path", "conc", "p50 ms", "p90 ms", "p99 ms", "exec/s", "CPU ms", "JS ms"));
  for (const concurrency of levels) {
    const results = [];
    for (const path of paths) {
      await path.prepare?.(concurrency);
      if (warmup > 0) await measure(path, concurrency, warmup, group);
    }
    for (const [i, measured] of (
      await interleaved(paths, concurrency, levelSize(concurrency), group)
    ).entries()) {
      const s = {
        ...summarize(measured),
        cpu: measured.cpu,
        jsThread: measured.jsThread,
        chunkRates: measured.chunkRates,
      };
      results.push(s);
      console.log(line(paths[i].name, concurrency, s.p50, s.p90, s.p99, s.perSecond, s.cpu, s.jsThread));
    }
    const [mcp, , cm, modern] = results;
    levelsVsCodemode.push({ concurrency, p50: mcp.p50 / cm.p50, perSecond: mcp.perSecond / cm.perSecond });
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
  return levelsVsCodemode;
}
