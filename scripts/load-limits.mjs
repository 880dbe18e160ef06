// `npm run load:limits`: what the rate limiter does under load. Starts the gateway, makes a team
// whose keys may send LIMIT requests a minute, fires REQUESTS requests at CONCURRENCY at once with
// one key, and prints how many were allowed/refused and how fast. Then the same for executions
// against the team's concurrent-execution cap. Env: LIMIT (100), REQUESTS (1000), CONCURRENCY (50).
import { randomBytes } from "node:crypto";
import { useToolchain } from "./lib/toolchain.mjs";
import { startWranglerDev } from "./lib/wrangler-dev.mjs";

await useToolchain("load:limits");

const LIMIT = Number(process.env.LIMIT ?? 100);
const REQUESTS = Number(process.env.REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 50);
const admin = `adm_${randomBytes(16).toString("hex")}`;

const gateway = await startWranglerDev({
  configs: ["wrangler.toml", "workers/demo-upstream/wrangler.toml"],
  vars: { ADMIN_TOKEN: admin, DEV_API_KEY: `dev_${randomBytes(16).toString("hex")}` },
  persist: "temp",
});
try {
  const call = (method, path, body, headers = {}) =>
    fetch(`${gateway.url}${path}`, {
      method,
      headers: { "Content-Type": "application/json", ...headers },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const asAdmin = { Authorization: `Bearer ${admin}` };
  await call("PUT", "/admin/teams/load", { limits: { requestsPerMinute: LIMIT, maxConcurrent: 5 } }, asAdmin);
  const { key } = await (await call("POST", "/admin/teams/load/keys", { name: "load" }, asAdmin)).json();

  const counts = new Map();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) {
        const res = await call("GET", "/v1/tools?detail=name&limit=1", undefined, { "X-API-Key": key });
        await res.arrayBuffer();
        counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `rate limit: ${LIMIT}/min per key; ${REQUESTS} requests, concurrency ${CONCURRENCY}, ${seconds.toFixed(1)} s (${(REQUESTS / seconds).toFixed(0)} req/s)`,
  );
  for (const [status, n] of [...counts].sort()) console.log(`  HTTP ${status}: ${n}`);
  const refill = Math.round((seconds * LIMIT) / 60);
  console.log(`  expected allowed: ${LIMIT} (full bucket) + ~${refill} refilled during the run`);

  const exec = () =>
    call(
      "POST",
      "/v1/execute",
      { code: "await new Promise((r) => setTimeout(r, 500)); return 1" },
      { "X-API-Key": key },
    ).then((r) => r.json());
  await call(
    "PUT",
    "/admin/teams/load",
    { limits: { requestsPerMinute: 100000, maxConcurrent: 5 } },
    asAdmin,
  );
  await new Promise((r) => setTimeout(r, 5_500));
  const results = await Promise.all(Array.from({ length: 20 }, exec));
  const ran = results.filter((r) => r.result === 1).length;
  const capped = results.filter((r) => r.error?.name === "ConcurrencyLimitError").length;
  console.log(`concurrency cap: 5 per team; 20 executions of 500 ms at once: ${ran} ran, ${capped} refused`);
} finally {
  await gateway.stop();
}
