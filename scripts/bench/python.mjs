// Section 6: Python next to TypeScript, a trivial execute over MCP at c=1 (one fresh isolate each).
// The first Python execution of the host makes the memory snapshot; it is timed on its own.
// Both run on the stack `npm run dev` runs (scripts/lib/stack.mjs: the sandbox host in a workerd of
// its own), not the bench's one-process stack: there, with the isolates made in the gateway's own
// workerd, that workerd has been seen to spin for good in V8's C++-heap sweeper (cppgc
// IncrementalSweepTask re-posting itself from PumpMessageLoop, `perf` on the hung process) at the
// first to ~18th Python execution, while the two-process stack ran 60 in a row without a miss
// (docs/bench-log.md has the runs).
import { randomUUID } from "node:crypto";
import { startStack } from "../lib/stack.mjs";
import { gatewayClient } from "./gateway-client.mjs";
import { percentile, table } from "./stats.mjs";

const RUNS = Number(process.env.BENCH_PY_REQUESTS ?? 50);

async function timed(gw, session, args, expected) {
  const t0 = performance.now();
  const result = await gw.rpc(session, "tools/call", { name: "execute", arguments: args });
  const ms = performance.now() - t0;
  const out = result?.structuredContent;
  if (out?.result !== expected || out.error)
    throw new Error(`python bench: ${JSON.stringify(out).slice(0, 400)}`);
  return ms;
}

/** @param {{ track: (stop: () => Promise<void>) => void }} options `track` gets the stack's stop at once */
export async function runPython({ track }) {
  console.log(
    `\n== 6. Python (Pyodide) vs TypeScript: trivial execute over MCP, c=1, ${RUNS} runs each (two-process stack, as npm run dev)`,
  );
  const apiKey = `bench-py-${randomUUID()}`;
  // As scripts/bench/stack.mjs: the key from the process environment, nothing else of it passed on.
  const env = { CLOUDFLARE_INCLUDE_PROCESS_ENV: "true", DEV_API_KEY: apiKey };
  for (const key of Object.keys(process.env)) {
    if (!["PATH", "HOME", "TMPDIR", "XDG_CONFIG_HOME"].includes(key)) env[key] = undefined;
  }
  const vars = { LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "1000000" };
  let stopping;
  const stop = () => {
    stopping ??= started.then((stack) => stack.stop()).catch(() => {});
    return stopping;
  };
  const started = startStack({ env, vars, envFile: null, persist: "temp", echo: () => false, log: () => {} });
  track(stop);
  try {
    const stack = await started;
    await measure(gatewayClient(stack.url, apiKey));
  } finally {
    await stop();
  }
}

async function measure(gw) {
  const session = await gw.openMcpSession();
  const python = { code: "1 + 1", language: "python" };
  const first = await timed(gw, session, python, 2);
  const rows = [];
  for (const [label, args] of [
    ["python `1 + 1`", python],
    ["typescript `return 1 + 1`", { code: "return 1 + 1" }],
  ]) {
    for (let i = 0; i < 3; i++) await timed(gw, session, args, 2);
    const times = [];
    for (let i = 0; i < RUNS; i++) times.push(await timed(gw, session, args, 2));
    rows.push([label, percentile(times, 50).toFixed(1), percentile(times, 90).toFixed(1)]);
  }
  console.log(table(["execute", "p50 ms", "p90 ms"], rows));
  console.log(
    `first Python execution of the host (boots CPython, makes the memory snapshot): ${first.toFixed(0)} ms`,
  );
}
