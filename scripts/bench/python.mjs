// Section 6: Python next to TypeScript, a trivial execute over MCP at c=1, on each engine (a team
// each): quickjs (the team's warm Python worker: a CPython instance restored per execution when it
// has the turn) and isolate (a fresh isolate per execution, restored from the sandbox host's
// snapshot). Python is timed back to back and at an agent's pace (a pause between executions, not
// counted).
// The first Python execution of each team is timed on its own.
// All run on the stack `npm run dev` runs (scripts/lib/stack.mjs: the sandbox host in a workerd of
// its own), not the bench's one-process stack: there, with the isolates made in the gateway's own
// workerd, that workerd has been seen to spin for good in V8's C++-heap sweeper (cppgc
// IncrementalSweepTask re-posting itself from PumpMessageLoop, `perf` on the hung process) at the
// first to ~18th Python execution, while the two-process stack ran 60 in a row without a miss
// (docs/bench-log.md has the runs).
import { randomUUID } from "node:crypto";
import { startStack } from "../lib/stack.mjs";
import { admin } from "./admin-api.mjs";
import { gatewayClient } from "./gateway-client.mjs";
import { percentile, table } from "./stats.mjs";

const RUNS = Number(process.env.BENCH_PY_REQUESTS ?? 50);
/** An agent's pace: the pause between two executions (an LLM turn is seconds). */
const PAUSE_MS = 300;

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
    `\n== 6. Python (Pyodide) vs TypeScript: trivial execute over MCP, c=1, ${RUNS} runs each, per engine (two-process stack, as npm run dev)`,
  );
  const apiKey = `bench-py-${randomUUID()}`;
  const adminToken = `bench-py-admin-${randomUUID()}`;
  // As scripts/bench/stack.mjs: the key from the process environment, nothing else of it passed on.
  const env = { CLOUDFLARE_INCLUDE_PROCESS_ENV: "true", DEV_API_KEY: apiKey, ADMIN_TOKEN: adminToken };
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
    const rows = [];
    const firsts = [];
    const figures = {};
    for (const engine of ["quickjs", "isolate"]) {
      const team = `bench-py-${engine}`;
      await admin(stack.url, adminToken, "PUT", `/teams/${team}`, { engine });
      const { key } = await admin(stack.url, adminToken, "POST", `/teams/${team}/keys`, { name: "bench" });
      const measured = await measure(gatewayClient(stack.url, key), engine);
      rows.push(...measured.rows);
      firsts.push(`${engine} ${measured.first.toFixed(0)} ms`);
      figures[engine] = { first: measured.first, ...measured.p50 };
    }
    console.log(table(["execute", "p50 ms", "p90 ms"], rows));
    console.log(
      `first Python execution of each team (quickjs: its warm worker boots CPython, snapshots it and hardens its realm; isolate: the sandbox host made its snapshot when it started): ${firsts.join(", ")}`,
    );
    return figures;
  } finally {
    await stop();
  }
}

async function measure(gw, engine) {
  const session = await gw.openMcpSession();
  const python = { code: "1 + 1", language: "python" };
  const first = await timed(gw, session, python, 2);
  const rows = [];
  const p50 = {};
  for (const [label, args, pause, figure] of [
    ["python `1 + 1`, back to back", python, 0, "backToBack"],
    [`python \`1 + 1\`, ${PAUSE_MS} ms apart`, python, PAUSE_MS, "paced"],
    ["typescript `return 1 + 1`", { code: "return 1 + 1" }, 0, "typescript"],
  ]) {
    for (let i = 0; i < 3; i++) await timed(gw, session, args, 2);
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      if (pause) await new Promise((r) => setTimeout(r, pause));
      times.push(await timed(gw, session, args, 2));
    }
    p50[figure] = percentile(times, 50);
    rows.push([`${engine}: ${label}`, p50[figure].toFixed(1), percentile(times, 90).toFixed(1)]);
  }
  return { rows, first, p50 };
}
