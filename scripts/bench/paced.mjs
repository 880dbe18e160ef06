// Section 1c: executions the way an agent sends them, one at a time with think time between, so
// nothing a request leaves for later (lease release, audit write, isolate teardown) is shared with
// the next one of another path. Each path runs in blocks of BLOCK executions, each after QUIET_MS
// of quiet; the workerd CPU each execution caused is read at offsets after its response, up to
// QUIET_MS, from per-thread schedstat (ns); and each block's whole CPU, read SETTLE_MS after its
// last answer, so what an execution leaves for the next one (the gateway's leases and audit
// entries, carried by its next admit or sent on their own within 1 s) counts on its own path.
import { setTimeout as sleep } from "node:timers/promises";
import { workerdCpuNs } from "./cpu.mjs";
import { percentile } from "./stats.mjs";

export const QUIET_MS = 400;
/**
 * Longer than anything a gateway execution leaves for later: its leases and audit entries wait for
 * the team's next admit for at most the audit queue's maximum age (1 s, workers/gateway/audit/record.ts).
 */
export const SETTLE_MS = 1_200;
const OFFSETS_MS = [0, 25, 50, 110, 200, QUIET_MS];
const BLOCK = 3;

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

/**
 * `rounds` executions per path, in blocks of BLOCK (paths in random order per round of blocks). The
 * figures returned per path: `cpuMs`, the median workerd CPU an execution caused, read QUIET_MS
 * after its answer; `blockCpuMs`, the median over its blocks of the block's workerd CPU, from before
 * its first execution to SETTLE_MS after its last answer, per execution.
 * @param {{ paths: Array<{ name: string, call: () => Promise<{ result?: unknown } | undefined> }>, group: number, rounds: number }} o
 */
export async function runPaced({ paths, group, rounds }) {
  const blocks = Math.max(1, Math.ceil(rounds / BLOCK));
  console.log(
    `\n== 1c. Agent-paced executions: one at a time, ${QUIET_MS} ms of quiet before each, ${blocks * BLOCK} per path ` +
      `in blocks of ${BLOCK}, paths in random order; median workerd CPU ms caused by one execution, read this long after ` +
      `its response; and per execution of a block, read ${SETTLE_MS} ms after its last response`,
  );
  const cpu = paths.map(() => OFFSETS_MS.map(() => []));
  const perBlock = paths.map(() => []);
  for (let round = 0; round < blocks; round++) {
    for (const i of paths.map((_, k) => k).sort(() => Math.random() - 0.5)) {
      const before = workerdCpuNs(group);
      for (let n = 0; n < BLOCK; n++) {
        for (const [k, ms] of (await causedCpu(paths[i], group, OFFSETS_MS)).entries()) cpu[i][k].push(ms);
      }
      await sleep(SETTLE_MS - QUIET_MS);
      perBlock[i].push((workerdCpuNs(group) - before) / 1e6 / BLOCK);
    }
  }
  console.log(
    `${"path".padEnd(32)}${OFFSETS_MS.map((o) => `+${o} ms`.padStart(10)).join("")}${"block/exec".padStart(12)}`,
  );
  for (const [i, path] of paths.entries()) {
    console.log(
      `${path.name.padEnd(32)}${cpu[i].map((xs) => percentile(xs, 50).toFixed(2).padStart(10)).join("")}` +
        `${percentile(perBlock[i], 50).toFixed(2).padStart(12)}`,
    );
  }
  const quiet = OFFSETS_MS.indexOf(QUIET_MS);
  return paths.map((path, i) => ({
    name: path.name,
    cpuMs: percentile(cpu[i][quiet], 50),
    blockCpuMs: percentile(perBlock[i], 50),
  }));
}
