// Section 5: Python next to TypeScript, a trivial execute over MCP at c=1 (one fresh isolate each).
// The first Python execution of the host makes the memory snapshot; it is timed on its own.
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

export async function runPython({ gw }) {
  console.log(`\n== 6. Python (Pyodide) vs TypeScript: trivial execute over MCP, c=1, ${RUNS} runs each`);
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
