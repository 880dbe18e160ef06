// Section 9: the two engines and codemode's executor on the same work, in one run, and what each
// costs at Cloudflare's list prices (docs/cost.md gives the prices, their date and the formula).
// Two teams of their own (engine quickjs, engine isolate), so the gateway's own count of Dynamic
// Workers (GET /v1/audit/usage: each `load` one, each warm worker's id once per day) covers only
// this section's executions. Per engine: trivial code at c=1 and c=10, the README demo task (the
// code of section 3, 491 open tickets), and the workerd CPU per execution over those runs (/proc),
// every run with its paths in turns (section 1's `interleaved`, each window open SETTLE_MS after its
// last answer). codemode's DynamicWorkerExecutor calls `loader.load()` for every execution (its
// dist/index.js): one Dynamic Worker per execution, counted as such. KV operations and Durable
// Object requests: the gateway's own count (cost.mjs).
import { admin } from "./admin-api.mjs";
import {
  costLine,
  DAY,
  NO_STORAGE,
  perExecution,
  storageBindings,
  storageProbe,
  storageText,
} from "./cost.mjs";
import { gatewayClient } from "./gateway-client.mjs";
import { interleaved } from "./latency.mjs";
import { SETTLE_MS } from "./paced.mjs";
import { CODE as DEMO_TASK } from "./scenario.mjs";
import { summarize } from "./stats.mjs";

function expectResult(out, check, what) {
  if (out?.error || !check(out?.result)) {
    throw new Error(`${what}: unexpected answer ${JSON.stringify(out).slice(0, 400)}`);
  }
  return out;
}

const sum = (runs, figure) => runs.reduce((a, r) => a + figure(r), 0);

/** Per path: c=1 and c=10 summaries, workerd CPU and KV / Durable Object calls per execution over both. */
function pathRows(paths, c1, c10) {
  return paths.map((path, i) => {
    const runs = [c1[i], c10[i]];
    const executions = sum(runs, (r) => r.latencies.length);
    const counters = {};
    for (const r of runs)
      for (const [k, v] of Object.entries(r.counters)) counters[k] = (counters[k] ?? 0) + v;
    return {
      path,
      c1: summarize(c1[i]),
      c10: summarize(c10[i]),
      cpu: sum(runs, (r) => r.cpu * r.latencies.length) / executions,
      storage: perExecution(counters, executions),
    };
  });
}

/**
 * `codemode`: the bench's gateway client (its key passes bench-codemode's check). Every run
 * alternates its paths chunk by chunk in a turning order (section 1's `interleaved`), and each
 * window stays open SETTLE_MS after its last answer, so the work a path defers (the next
 * interpreter, zeroing memory, the audit write) is counted on that path. Resolves to the figures
 * the run's summary quotes.
 */
export async function runEngines({ base, adminToken, group, requests, chunks, codemode }) {
  console.log(
    `\n== 9. Engines and cost: the quickjs and isolate engines (a team each) and codemode's executor, ` +
      `${requests} trivial executions per path at c=1 and c=10 in ${chunks} chunks alternating between the paths ` +
      `(each window open ${SETTLE_MS} ms after its last answer), then the README demo task`,
  );
  const servers = { demo: { service: "DEMO", description: "Demo support desk" } };
  const engines = [];
  for (const engine of ["quickjs", "isolate"]) {
    const team = `bench-${engine}`;
    await admin(base, adminToken, "PUT", `/teams/${team}`, { servers, engine });
    const { key } = await admin(base, adminToken, "POST", `/teams/${team}/keys`, { name: "bench" });
    engines.push({ name: engine, gw: gatewayClient(base, key) });
  }
  let n = 0;
  const trivial = () => `return ${++n + 2} - ${n}`;
  const since = Date.now();
  const paths = [
    ...engines.map((e) => ({
      name: `gateway, ${e.name} engine`,
      call: () => e.gw.post("/v1/execute", { code: trivial() }),
      engine: e,
    })),
    {
      name: "codemode DynamicWorkerExecutor",
      call: () => codemode.post("/codemode/execute", { code: `async () => { ${trivial()} }` }),
    },
  ];
  for (const path of paths)
    for (let i = 0; i < 10; i++) expectResult(await path.call(), (r) => r === 2, path.name);
  const window = { chunks, settleMs: SETTLE_MS, counters: storageProbe(base, adminToken) };
  const rows = pathRows(
    paths,
    await interleaved(paths, 1, { requests, ...window }, group),
    await interleaved(paths, 10, { requests, ...window }, group),
  );
  const one = { chunks: 10, perSlot: 1, settleMs: SETTLE_MS }; // one execution per path in turn
  const taskPaths = engines.map((e) => ({
    name: `${e.name} demo task`,
    call: () => e.gw.post("/v1/execute", { code: DEMO_TASK, timeoutMs: 60_000 }),
    check: (r) => Array.isArray(r) && r.length === 5,
  }));
  for (const p of taskPaths) expectResult(await p.call(), p.check, p.name);
  const tasks = (await interleaved(taskPaths, 1, { requests: 10, ...one }, group)).map(summarize);
  console.log(
    `${"path".padEnd(34)}${"c=1 p50".padStart(10)}${"c=10 /s".padStart(10)}${"CPU ms".padStart(9)}${"task p50".padStart(10)}`,
  );
  for (const [i, r] of rows.entries()) {
    console.log(
      `${r.path.name.padEnd(34)}${r.c1.p50.toFixed(1).padStart(10)}${r.c10.perSecond.toFixed(1).padStart(10)}` +
        `${r.cpu.toFixed(2).padStart(9)}${(tasks[i] ? tasks[i].p50.toFixed(0) : "-").padStart(10)}`,
    );
  }
  const taskRatio = tasks[0].p50 / tasks[1].p50;
  console.log(
    `demo task (491 open tickets, 2 pages + 5 customers; the engines in turn, 10 each): quickjs ${taskRatio.toFixed(2)}x the isolate engine's p50`,
  );
  const loop = "let s = 0; for (let i = 0; i < 10_000_000; i++) s = (s + i * 7) % 1000003; return s;";
  const loops = engines.map((e) => ({
    name: `${e.name} loop`,
    call: () => e.gw.post("/v1/execute", { code: loop, timeoutMs: 60_000 }),
    check: Number.isInteger,
  }));
  const compute = (await interleaved(loops, 1, { ...one, requests: 3, chunks: 3 }, group)).map(
    (r) => summarize(r).p50,
  );
  console.log(
    `compute (a 10^7-iteration loop, p50 of 3): quickjs ${compute[0].toFixed(0)} ms, isolate ${compute[1].toFixed(0)} ms: ${(compute[0] / compute[1]).toFixed(0)}x`,
  );
  const costs = await costLines({ rows, since });
  return { rows, taskRatio, computeRatio: compute[0] / compute[1], costs };
}

/** The cost line of each path (and, for the gateway's, what it would be without KV and Durable Objects). */
async function costLines({ rows, since }) {
  if (storageBindings("workers/bench-codemode/wrangler.toml") > 0)
    throw new Error(
      "workers/bench-codemode/wrangler.toml declares KV or Durable Object bindings: meter them",
    );
  console.log(
    `\nDynamic Workers the gateway counted (GET /v1/audit/usage since this section began), KV operations and Durable Object ` +
      `requests per execution (the gateway's own meter over each path's windows; bench-codemode declares no KV namespace or ` +
      `Durable Object), and cost for a day of ${DAY.toLocaleString("en")} executions by one team:`,
  );
  const lines = [];
  for (const r of rows) {
    let line;
    if (r.path.engine) {
      const usage = await r.path.engine.gw.get(`/v1/audit/usage?since=${since}`);
      const shape = {
        pooledPerDay: usage.pooled,
        loadsPerExec: usage.loads / usage.executions,
        cpuMs: r.cpu,
      };
      line = {
        ...costLine({ ...shape, storage: r.storage }),
        bare: costLine({ ...shape, storage: NO_STORAGE }),
      };
      console.log(
        `  ${r.path.name}: ${usage.executions} executions, ${usage.dynamicWorkers} Dynamic Workers (${usage.pooled} warm ids, ${usage.loads} loads); ${storageText(r.storage)}`,
      );
    } else {
      line = costLine({ pooledPerDay: 0, loadsPerExec: 1, cpuMs: r.cpu, storage: NO_STORAGE });
      console.log(`  ${r.path.name}: the gateway's meter in its windows: ${storageText(r.storage)}`);
    }
    lines.push({ name: r.path.name, ...line });
  }
  for (const l of lines) {
    console.log(`  ${l.name.padEnd(34)} ${l.text}`);
    const bare = l.bare ? `; without KV and Durable Objects $${l.bare.dollarsPerThousand.toFixed(4)}` : "";
    console.log(`  ${"".padEnd(34)} (${l.breakdown}${bare})`);
  }
  const [lq, li, lc] = lines;
  const day = (l) => `$${((l.dollarsPerThousand * DAY) / 1000).toFixed(2)}`;
  console.log(
    `  quickjs $ per 1,000 / codemode's: 1/${(lc.dollarsPerThousand / lq.dollarsPerThousand).toFixed(0)}; ` +
      `a day of ${DAY.toLocaleString("en")}: quickjs ${day(lq)}, isolate ${day(li)}, codemode ${day(lc)}`,
  );
  return { quickjs: lq, isolate: li, codemode: lc };
}
