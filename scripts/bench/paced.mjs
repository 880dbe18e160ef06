// Section 1c: executions the way an agent sends them, one at a time with think time between, so
// nothing a request leaves for later (lease release, audit write, isolate teardown) is shared with
// the next one. Each execution runs after QUIET_MS of quiet; the workerd CPU it caused is read at
// offsets after its response, up to QUIET_MS, from per-thread schedstat (ns).
import { setTimeout as sleep } from "node:timers/promises";
import { workerdCpuNs } from "./cpu.mjs";
import { percentile } from "./stats.mjs";

export const QUIET_MS = 400;
const OFFSETS_MS = [0, 25, 50, 110, 200, QUIET_MS];

/**
 * One execution after QUIET_MS of quiet: the workerd CPU ms it caused, read at each of `offsets` (ms
 * after its answer). `call` resolves to the execution's result object, which must be 2.
 * @param {{ name: string, call: () => Promise<{ result?: unknown } | undefined> }} path
 * @param {number} group
 * @param {number[]} offsets
 */
export async function causedCpu(path, group, offsets) {
  await sleep(QUIET_MS);
  const before = workerdCpuNs(group);
  const out = await path.call();
  if (out?.result !== 2) throw new Error(`${path.name}: expected result 2, got ${JSON.stringify(out)}`);
  const answered = performance.now();
  const cpu = [];
  for (const offset of offsets) {
    await sleep(Math.max(0, answered + offset - performance.now()));
    cpu.push((workerdCpuNs(group) - before) / 1e6);
  }
  return cpu;
}

/** @param {{ paths: Array<{ name: string, call: () => Promise<{ result?: unknown } | undefined> }>, group: number, rounds: number }} o */
export async function runPaced({ paths, group, rounds }) {
  console.log(
    `\n== 1c. Agent-paced executions: one at a time, ${QUIET_MS} ms of quiet before each, ${rounds} per path ` +
      "in random order; median workerd CPU ms caused by one execution, read this long after its response",
  );
  const cpu = paths.map(() => OFFSETS_MS.map(() => []));
  for (let round = 0; round < rounds; round++) {
    for (const i of paths.map((_, k) => k).sort(() => Math.random() - 0.5)) {
      for (const [k, ms] of (await causedCpu(paths[i], group, OFFSETS_MS)).entries()) cpu[i][k].push(ms);
    }
  }
  console.log(`${"path".padEnd(32)}${OFFSETS_MS.map((o) => `+${o} ms`.padStart(10)).join("")}`);
  for (const [i, path] of paths.entries()) {
    console.log(
      `${path.name.padEnd(32)}${cpu[i].map((xs) => percentile(xs, 50).toFixed(2).padStart(10)).join("")}`,
    );
  }
  return paths.map((path, i) => ({ name: path.name, cpuMs: percentile(cpu[i].at(-1), 50) }));
}
