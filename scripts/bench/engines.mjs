// Section 9: the two engines and codemode's executor on the same work, in one run, and what each
// costs at Cloudflare's list prices (docs/cost.md gives the prices, their date and the formula).
// Two teams of their own (engine quickjs, engine isolate), so the gateway's own count of Dynamic
// Workers (GET /v1/audit/usage: each `load` one, each warm worker's id once per day) covers only
// this section's executions. Per engine: trivial code at c=1 and c=10, the README demo task (the
// code of section 3, 491 open tickets), and the workerd CPU per execution over those runs (/proc).
// codemode's DynamicWorkerExecutor calls `loader.load()` for every execution (its dist/index.js):
// one Dynamic Worker per execution, counted as such.
import { admin } from "./admin-api.mjs";
import { cpuPer, groupCpu } from "./cpu.mjs";
import { gatewayClient } from "./gateway-client.mjs";
import { CODE as DEMO_TASK } from "./scenario.mjs";
import { percentile } from "./stats.mjs";

/** List prices (USD) read 2026-11-27 from Cloudflare's pricing pages; docs/cost.md cites them. */
export const PRICES = {
  dynamicWorker: 0.002, // per unique Dynamic Worker (id + code) per day, beyond 1,000 a month included
  request: 0.3 / 1e6, // Workers Standard, per request beyond 10 M a month
  cpuMs: 0.02 / 1e6, // per CPU millisecond beyond 30 M a month
  doRequest: 0.15 / 1e6, // Durable Objects, per request beyond 1 M a month
};
/** The day the cost lines describe: one team's executions. */
const DAY = 100_000;
/**
 * Requests per execution besides Dynamic Workers: the client's request and the call into the
 * Dynamic Worker. Durable Object requests: the gateway's admission (RateLimiter) and, written behind, the
 * lease's return and the audit append: at most 3; codemode's executor uses none.
 */
const REQUESTS_PER_EXEC = 2;
const GATEWAY_DO_REQUESTS = 3;

/** $ per execution at list prices, and Dynamic Workers per 1,000 executions, for a day of DAY executions. */
export function costLine({ pooledPerDay, loadsPerExec, cpuMs, doRequests }) {
  const workersPerDay = pooledPerDay + loadsPerExec * DAY;
  const perThousand = (workersPerDay / DAY) * 1000;
  const dollarsPerExec =
    (workersPerDay * PRICES.dynamicWorker) / DAY +
    REQUESTS_PER_EXEC * PRICES.request +
    cpuMs * PRICES.cpuMs +
    doRequests * PRICES.doRequest;
  return {
    perThousand,
    dollarsPerThousand: dollarsPerExec * 1000,
    text: `cost: ${perThousand.toFixed(perThousand < 1 ? 2 : 0)} Dynamic Workers per 1,000 executions, $${(dollarsPerExec * 1000).toFixed(4)} per 1,000 executions at list prices`,
  };
}

async function timed(count, concurrency, call) {
  const latencies = [];
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < count) {
        issued++;
        const t0 = performance.now();
        await call();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { p50: percentile(latencies, 50), perSecond: count / ((performance.now() - started) / 1000) };
}

function expectResult(out, check, what) {
  if (out?.error || !check(out?.result)) {
    throw new Error(`${what}: unexpected answer ${JSON.stringify(out).slice(0, 400)}`);
  }
  return out;
}

/** `codemode`: the bench's gateway client (its key passes bench-codemode's check) */
export async function runEngines({ base, adminToken, group, requests, codemode }) {
  console.log(
    `\n== 9. Engines and cost: the quickjs and isolate engines (a team each) and codemode's executor, ` +
      `${requests} trivial executions at c=1 and c=10 each, then the README demo task`,
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
  const rows = [];
  const paths = [
    ...engines.map((e) => ({
      name: `gateway, ${e.name} engine`,
      call: () => e.gw.post("/v1/execute", { code: trivial() }),
      task: () => e.gw.post("/v1/execute", { code: DEMO_TASK, timeoutMs: 60_000 }),
      engine: e,
    })),
    {
      name: "codemode DynamicWorkerExecutor",
      call: () => codemode.post("/codemode/execute", { code: `async () => { ${trivial()} }` }),
    },
  ];
  for (const path of paths) {
    const is2 = (r) => r === 2;
    for (let i = 0; i < 10; i++) expectResult(await path.call(), is2, path.name);
    const before = groupCpu(group);
    const c1 = await timed(requests, 1, async () => expectResult(await path.call(), is2, path.name));
    const c10 = await timed(requests, 10, async () => expectResult(await path.call(), is2, path.name));
    const cpu = cpuPer(before, groupCpu(group), requests * 2).workerd;
    const task = path.task
      ? await timed(10, 1, async () =>
          expectResult(
            await path.task(),
            (r) => Array.isArray(r) && r.length === 5,
            `${path.name} demo task`,
          ),
        )
      : undefined;
    rows.push({ path, c1, c10, cpu, task });
  }
  console.log(
    `${"path".padEnd(34)}${"c=1 p50".padStart(10)}${"c=10 /s".padStart(10)}${"CPU ms".padStart(9)}${"task p50".padStart(10)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.path.name.padEnd(34)}${r.c1.p50.toFixed(1).padStart(10)}${r.c10.perSecond.toFixed(1).padStart(10)}` +
        `${r.cpu.toFixed(2).padStart(9)}${(r.task ? r.task.p50.toFixed(0) : "-").padStart(10)}`,
    );
  }
  const [qjs, iso] = rows;
  console.log(
    `demo task (491 open tickets, 2 pages + 5 customers): quickjs ${(qjs.task.p50 / iso.task.p50).toFixed(2)}x the isolate engine's p50`,
  );
  const loop = "let s = 0; for (let i = 0; i < 10_000_000; i++) s = (s + i * 7) % 1000003; return s;";
  const compute = [];
  for (const e of engines) {
    const r = await timed(3, 1, async () =>
      expectResult(
        await e.gw.post("/v1/execute", { code: loop, timeoutMs: 60_000 }),
        Number.isInteger,
        `${e.name} loop`,
      ),
    );
    compute.push(r.p50);
  }
  console.log(
    `compute (a 10^7-iteration loop, p50 of 3): quickjs ${compute[0].toFixed(0)} ms, isolate ${compute[1].toFixed(0)} ms: ${(compute[0] / compute[1]).toFixed(0)}x`,
  );
  console.log(
    `\nDynamic Workers the gateway counted (GET /v1/audit/usage since this section began), and cost for a day of ${DAY.toLocaleString("en")} executions by one team:`,
  );
  const lines = [];
  for (const r of rows) {
    let usage;
    if (r.path.engine) {
      usage = await r.path.engine.gw.get(`/v1/audit/usage?since=${since}`);
      const line = costLine({
        pooledPerDay: usage.pooled,
        loadsPerExec: usage.loads / usage.executions,
        cpuMs: r.cpu,
        doRequests: GATEWAY_DO_REQUESTS,
      });
      console.log(
        `  ${r.path.name}: ${usage.executions} executions, ${usage.dynamicWorkers} Dynamic Workers (${usage.pooled} warm ids, ${usage.loads} loads)`,
      );
      lines.push({ name: r.path.name, ...line });
    } else {
      lines.push({
        name: r.path.name,
        ...costLine({ pooledPerDay: 0, loadsPerExec: 1, cpuMs: r.cpu, doRequests: 0 }),
      });
    }
  }
  for (const l of lines) console.log(`  ${l.name.padEnd(34)} ${l.text}`);
  const cm = lines[2];
  console.log(
    `  quickjs $ per 1,000 / codemode's: 1/${(cm.dollarsPerThousand / lines[0].dollarsPerThousand).toFixed(0)}; ` +
      `a day of ${DAY.toLocaleString("en")}: quickjs $${((lines[0].dollarsPerThousand * DAY) / 1000).toFixed(2)}, ` +
      `isolate $${((lines[1].dollarsPerThousand * DAY) / 1000).toFixed(2)}, codemode $${((cm.dollarsPerThousand * DAY) / 1000).toFixed(2)}`,
  );
}
