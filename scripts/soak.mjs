// `npm run soak`: many executions against the local stack (scripts/lib/stack.mjs: gateway + demo in
// one workerd, the sandbox host in another), printing every 1,000 executions the resident memory of
// both workerd processes, then whether it levels off. Talks only to 127.0.0.1 and stops by itself.
// Env: SOAK_EXECUTIONS (20000), SOAK_CONCURRENCY (4), SOAK_MAX_MINUTES (30), SOAK_EVERY (1000).
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { startStack } from "./lib/stack.mjs";
import { useToolchain } from "./lib/toolchain.mjs";

await useToolchain("soak");

const TOTAL = Number(process.env.SOAK_EXECUTIONS ?? 20_000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 4);
const MAX_MS = Number(process.env.SOAK_MAX_MINUTES ?? 30) * 60_000;
const EVERY = Number(process.env.SOAK_EVERY ?? 1_000);
// Small but real: a loop, an allocation, a log line, a tool call through the bridge, a result.
const CODE = `const a = [];
for (let i = 0; i < 1000; i++) a.push({ i });
console.log("rows", a.length);
const stats = await tools.demo.ticket_stats({ groupBy: "priority" });
return { rows: a.length, groups: stats.groups.length };`;

/** pids of `pid` and all its descendants. */
function tree(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${out[i]}/task/${task}/children`, "utf8").trim();
        if (children) out.push(...children.split(/\s+/).map(Number));
      } catch {}
    }
  }
  return out;
}

/** Resident MB of the workerd processes under `pid`. */
function workerdRssMb(pid) {
  let kb = 0;
  for (const p of tree(pid)) {
    try {
      if (readFileSync(`/proc/${p}/comm`, "utf8").trim() !== "workerd") continue;
      const line = readFileSync(`/proc/${p}/status`, "utf8").match(/^VmRSS:\s+(\d+)/m);
      kb += Number(line?.[1] ?? 0);
    } catch {}
  }
  return Math.round(kb / 1024);
}

const key = `soak_${randomBytes(16).toString("hex")}`;
const stack = await startStack({
  vars: {
    DEV_API_KEY: key,
    RATE_LIMIT_PER_MINUTE: "1000000",
    EXEC_MAX_CONCURRENT: "1000",
    LOG_LEVEL: "warn",
  },
  persist: "temp",
  envFile: null,
  echo: () => false,
  log: (line) => console.log(line),
});
const stop = async () => {
  await stack.stop();
};
process.once("SIGINT", async () => {
  await stop();
  process.exit(130);
});

const started = Date.now();
let done = 0;
let errors = 0;
let firstError = "";
const rows = [];

async function one() {
  const res = await fetch(`${stack.url}/v1/execute`, {
    method: "POST",
    headers: { "X-API-Key": key, "Content-Type": "application/json" },
    body: JSON.stringify({ code: CODE }),
    signal: AbortSignal.timeout(60_000),
  }).catch((err) => ({ ok: false, json: async () => ({ error: { message: String(err) } }) }));
  const body = await res.json().catch(() => ({}));
  if (!res.ok || body.error || body.result?.rows !== 1000) {
    errors++;
    firstError ||= JSON.stringify(body).slice(0, 300);
  }
}

function sample() {
  const sandboxHost = stack.sandboxHost.current();
  const row = {
    executions: done,
    seconds: Math.round((Date.now() - started) / 1000),
    perSecond: Math.round((done / Math.max(1, Date.now() - started)) * 1000),
    gatewayMb: workerdRssMb(stack.gateway.child.pid),
    sandboxHostMb: sandboxHost ? workerdRssMb(sandboxHost.child.pid) : 0,
    errors,
    sandboxHostRestarts: stack.sandboxHost.restarts,
  };
  rows.push(row);
  console.log(
    `${String(row.executions).padStart(6)} executions  ${String(row.seconds).padStart(5)} s  ${String(row.perSecond).padStart(4)}/s  ` +
      `gateway ${String(row.gatewayMb).padStart(5)} MB  sandbox host ${String(row.sandboxHostMb).padStart(5)} MB  errors ${row.errors}  sandbox host restarts ${row.sandboxHostRestarts}`,
  );
}

try {
  sample();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < TOTAL && Date.now() - started < MAX_MS) {
        next++;
        await one();
        done++;
        if (done % EVERY === 0) sample();
      }
    }),
  );
  if (done % EVERY !== 0) sample();
  if (firstError) console.log(`first error: ${firstError}`);
  console.log(verdict(rows));
} finally {
  await stop();
}
process.exit(errors > 0 ? 1 : 0);

/** Growth per 1,000 executions over the first and the second half of the run, after warm-up. */
function verdict(samples) {
  const warm = samples.filter((r) => r.executions >= 2 * EVERY);
  if (warm.length < 4) return "verdict: too few samples for a trend (raise SOAK_EXECUTIONS)";
  const mid = Math.floor(warm.length / 2);
  const slope = (from, to, field) =>
    ((to[field] - from[field]) / Math.max(1, to.executions - from.executions)) * 1000;
  const parts = ["gatewayMb", "sandboxHostMb"].map((field) => {
    const early = slope(warm[0], warm[mid], field);
    const late = slope(warm[mid], warm.at(-1), field);
    const levels = late <= Math.max(1, early / 2);
    return `${field === "gatewayMb" ? "gateway" : "sandbox host"}: ${early.toFixed(1)} MB per 1,000 executions early, ${late.toFixed(1)} late → ${levels ? "levels off" : "still growing"}`;
  });
  return `verdict: ${parts.join("; ")}`;
}
