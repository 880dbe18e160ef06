// The last block `npm run bench` prints: every figure README.md quotes from the bench, and the figures
// of issue 50's bar that docs/benchmarks.md keeps, all from this one run, with the machine they ran on
// (cores, CPU model, load average), so the README and docs/benchmarks.md can be filled from one
// default run. A figure whose section did not run says so.
import { availableParallelism, cpus, loadavg } from "node:os";
import { QUIET_MS, SETTLE_MS } from "./paced.mjs";
import { int } from "./stats.mjs";

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

/** The machine, as the first line of a run prints it and the summary repeats it. */
export function machine() {
  const model = cpus()[0]?.model.trim() ?? "unknown CPU";
  return `${availableParallelism()} cores (${model}), load average ${load()}`;
}

const ms = (n) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n.toFixed(1)} ms`);
const x = (n) => `${n.toFixed(2)}x`;
const dollars = (n) => `$${n.toFixed(4)}`;

/** Each quoted figure: the section it comes from, and its line from `f` (the sections' results). */
const LINES = [
  [2, (f) => `tier-1 tools/list: ${int(f.definitions.tier1Tokens)} tokens (README intro)`],
  [
    2,
    ({ definitions: { corpus } }) =>
      `${corpus.tools} real tool definitions from ${corpus.servers} npm MCP servers: ${int(corpus.tokens)} tokens (README intro)`,
  ],
  [
    3,
    ({ scenario: s }) =>
      `demo task (${s.tickets} open tickets): ${int(s.codeTotal)} tokens with one execute, ${int(s.directTotal)} ` +
      `calling the tools directly (-${((1 - s.codeTotal / s.directTotal) * 100).toFixed(1)} %) (README intro)`,
  ],
  [
    6,
    ({ python: { quickjs: q, isolate: i } }) =>
      `Python on quickjs: first execution ${ms(q.first)}, then p50 ${ms(q.paced)} at an agent's pace, ` +
      `${ms(q.backToBack)} back to back; on isolate ${ms(i.backToBack)} back to back, ${ms(i.paced)} paced (README "Python")`,
  ],
  [
    9,
    ({ engines: { costs } }) =>
      `cost: quickjs ${dollars(costs.quickjs.dollarsPerThousand)} per 1,000 executions, codemode's executor ` +
      `${dollars(costs.codemode.dollarsPerThousand)}; quickjs ${costs.quickjs.perThousand.toFixed(2)} Dynamic Workers per 1,000 (README "Engines and cost", docs/cost.md)`,
  ],
  [
    9,
    (f) =>
      `compute (10^7-iteration loop): quickjs ${f.engines.computeRatio.toFixed(0)}x the isolate engine's time (README "Engines and cost")`,
  ],
  [
    10,
    ({ memory }) =>
      `peak of a warm worker under memory attacks, four at once: ${[...new Set(memory.map((r) => r.language))]
        .map(
          (l) =>
            `${l} ${Math.max(...memory.filter((r) => r.language === l).map((r) => r.peakMb)).toFixed(0)} MB`,
        )
        .join(", ")} (Cloudflare's isolate: 128 MB; docs/security.md)`,
  ],
  [9, (f) => `demo task: quickjs ${x(f.engines.taskRatio)} the isolate engine's p50 (docs/benchmarks.md)`],
  [
    1,
    (f) =>
      `MCP vs codemode's executor: ${f.latency
        .map((l) => `c=${l.concurrency} p50 ${x(l.p50)}, exec/s ${x(l.perSecond)}`)
        .join("; ")} (docs/benchmarks.md)`,
  ],
  [
    1,
    (f) =>
      `agent-paced CPU per execution, read ${QUIET_MS} ms after its answer: ${f.paced.map((p) => `${p.name} ${p.cpuMs.toFixed(2)} ms`).join(", ")}; ` +
      `per execution of a block, read ${SETTLE_MS} ms after its last answer: ${f.paced.map((p) => `${p.blockCpuMs.toFixed(2)} ms`).join(", ")} (docs/benchmarks.md)`,
  ],
];

/** Prints the summary block; `figures` holds each section's result by name, `sections` those that ran. */
export function printSummary(figures, sections, startedOn) {
  console.log(
    `\n== The README's figures, all from this run (sections ${[...sections].sort((a, b) => a - b).join(",")})`,
  );
  console.log(`machine: ${startedOn} at the start, ${load()} at the end`);
  for (const [section, line] of LINES) {
    console.log(`  [${section}] ${sections.has(section) ? line(figures) : "not run (BENCH_SECTIONS)"}`);
  }
}
