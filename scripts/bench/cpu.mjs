// CPU time of the processes `wrangler dev` runs (its own process group: wrangler's node process and
// the workerd processes), read from /proc/<pid>/stat (utime + stime). Local workerd's clocks do not
// advance during pure computation, so this is the measure of what a request costs in CPU.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = text.lastIndexOf(")");
    const name = text.slice(text.indexOf("(") + 1, close);
    const fields = text.slice(close + 2).split(" ");
    // fields[0] is field 3 (state): pgrp is field 5, utime 14, stime 15
    return { name, pgrp: Number(fields[2]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/** The processes of `group`: pid and what /proc/<pid>/stat says of them. */
function members(group) {
  const out = [];
  if (!group) return out;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(entry);
    if (s?.pgrp === group) out.push({ pid: entry, ...s });
  }
  return out;
}

/** CPU ms so far of every process in `group`, summed by process name (`workerd`, `node`, ...). */
export function groupCpu(group) {
  const byName = {};
  for (const s of members(group)) {
    byName[s.name] = (byName[s.name] ?? 0) + (s.ticks * 1000) / TICKS_PER_SECOND;
  }
  return byName;
}

/** CPU ms per unit between two `groupCpu` samples: { workerd, other, total }. */
export function cpuPer(before, after, units) {
  const delta = (name) => (after[name] ?? 0) - (before[name] ?? 0);
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  let workerd = 0;
  let other = 0;
  for (const name of names) {
    if (name === "workerd") workerd += delta(name);
    else other += delta(name);
  }
  return { workerd: workerd / units, other: other / units, total: (workerd + other) / units };
}

/**
 * CPU ns so far of the workerd processes in `group`, from each thread's /proc schedstat (ns, not
 * 10 ms ticks): fine enough for one request.
 */
export function workerdCpuNs(group) {
  let ns = 0;
  for (const { pid } of members(group).filter((s) => s.name === "workerd")) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {}
    for (const task of tasks) ns += threadNs(pid, task) ?? 0;
  }
  return ns;
}

/** CPU ns so far of one thread, from its /proc schedstat; undefined once it is gone. */
function threadNs(pid, task) {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
  } catch {
    return undefined;
  }
}

/**
 * CPU ns so far of the main thread of each workerd process in `group`, by pid. A workerd process
 * runs all of its workers' JavaScript (the gateway, the Durable Objects, every Worker-Loader isolate)
 * on that one thread, so under load its CPU per execution, not the processes' total, is what bounds
 * throughput.
 */
export function workerdMainThreadNs(group) {
  const byPid = new Map();
  for (const { pid } of members(group).filter((s) => s.name === "workerd")) {
    const ns = threadNs(pid, pid);
    if (ns !== undefined) byPid.set(pid, ns);
  }
  return byPid;
}

/** CPU ms per unit of the busiest workerd main thread between two `workerdMainThreadNs` samples. */
export function mainThreadPer(before, after, units) {
  let busiest = 0;
  for (const [pid, ns] of after) busiest = Math.max(busiest, ns - (before.get(pid) ?? ns));
  return busiest / 1e6 / units;
}
