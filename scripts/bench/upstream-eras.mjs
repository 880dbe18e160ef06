// `node scripts/bench/upstream-eras.mjs`: what a federation call costs to an upstream that speaks MCP
// 2026-07-28 vs one that speaks only 2025-era MCP (sessionful), both small Node servers counting the
// wire (scripts/lib/era-upstreams.mjs). Prints figures only:
//   1. direct (Node, the v2 client as the gateway uses it, no gateway): one call as the gateway makes
//      it: 2026 with the remembered discover result (no handshake), 2025 with a fresh initialize,
//      2025 on an idle upstream session reused; and the POSTs each needs;
//   2. through the gateway (one `wrangler dev` stack): the mean time of N sequential in-code calls
//      (stats.calls), p50/p90 of an execute making one call, and 8 calls in Promise.all;
//   3. the wire each upstream saw.
// Env: ERAS_CALLS (100 per series), ERAS_WARMUP (10).
import { randomUUID } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { count, serveEraUpstreams } from "../lib/era-upstreams.mjs";
import { startStack } from "../lib/stack.mjs";
import { ms, percentile, timeSequential } from "./stats.mjs";

const CALLS = Number(process.env.ERAS_CALLS ?? 100);
const WARMUP = Number(process.env.ERAS_WARMUP ?? 10);
const up = await serveEraUpstreams();

const newClient = () => new Client({ name: "bench", version: "1" }, { versionNegotiation: { mode: "auto" } });

/** One call the way the gateway makes it: a new client and transport, connect, call, close. */
async function directCall(url, connectOptions, sessionId, protocolVersion) {
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    sessionId ? { sessionId, protocolVersion } : {},
  );
  const client = newClient();
  await client.connect(transport, connectOptions);
  const res = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
  if (res.structuredContent?.sum !== 3) throw new Error(`direct call gave ${JSON.stringify(res)}`);
  const session = transport.sessionId;
  await client.close();
  return session;
}

const p = (values) => `p50 ${ms(percentile(values, 50))}, p90 ${ms(percentile(values, 90))}`;
const posts = (wire, from) => wire.methods.length - from;

// 1. Direct.
const probe = newClient();
await probe.connect(new StreamableHTTPClientTransport(new URL(`${up.base}/modern/mcp`)));
const discover = probe.getDiscoverResult();
await probe.close();
const modernUrl = `${up.base}/modern/mcp`;
const legacyUrl = `${up.base}/legacy/mcp`;
const series = {
  "2026, remembered discover": () => directCall(modernUrl, { prior: { kind: "modern", discover } }),
  "2026, probing every call": () => directCall(modernUrl, {}),
  "2025, initialize every call": () => directCall(legacyUrl, { prior: { kind: "legacy" } }),
};
const idle = await directCall(legacyUrl, { prior: { kind: "legacy" } });
series["2025, idle upstream session"] = () =>
  directCall(legacyUrl, { prior: { kind: "legacy" } }, idle, "2025-11-25");
console.log(`== 1. Direct (Node, v2 client per call as the gateway makes it), ${CALLS} sequential calls`);
for (const [name, run] of Object.entries(series)) {
  for (let i = 0; i < WARMUP; i++) await run();
  const wire = name.startsWith("2026") ? up.modern.wire : up.legacy.wire;
  const before = wire.methods.length;
  const latencies = await timeSequential(CALLS, run);
  console.log(
    `  ${name.padEnd(30)} ${p(latencies)}  (${(posts(wire, before) / CALLS).toFixed(1)} POSTs per call)`,
  );
}

// 2. Through the gateway.
const apiKey = `bench-${randomUUID()}`;
const stack = await startStack({
  vars: {
    DEV_API_KEY: apiKey,
    MCP_SERVERS: JSON.stringify({ modern: { url: modernUrl }, old: { url: legacyUrl } }),
    LOG_LEVEL: "warn",
  },
  persist: "temp",
  envFile: null,
  echo: () => false,
  log: () => {},
});
try {
  const execute = async (code) => {
    const res = await fetch(`${stack.url}/v1/execute`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ code }),
    });
    const body = await res.json();
    if (!res.ok || body.error)
      throw new Error(`execute: ${res.status} ${JSON.stringify(body).slice(0, 400)}`);
    return body;
  };
  const loop = (server, n) =>
    `for (let i = 0; i < ${n}; i++) { const r = await tools.${server}.add({ a: i, b: 1 }); if (r.sum !== i + 1) throw new Error("bad"); } return ${n};`;
  const single = (server) => `return (await tools.${server}.add({ a: 1, b: 2 })).sum;`;
  const parallel = (server) =>
    `return (await Promise.all([1,2,3,4,5,6,7,8].map((i) => tools.${server}.add({ a: i, b: i })))).length;`;
  for (const server of ["modern", "old"]) await execute(loop(server, WARMUP));

  console.log(`\n== 2. Through the gateway (wrangler dev, REST /v1/execute)`);
  for (const server of ["modern", "old"]) {
    const out = await execute(loop(server, CALLS));
    const entry = out.stats.calls[0];
    console.log(`  ${server.padEnd(7)} in-code call, mean of ${CALLS} sequential: ${ms(entry.ms / CALLS)}`);
  }
  const e2e = { modern: [], old: [] };
  for (let i = 0; i < CALLS; i++) {
    for (const server of ["modern", "old"]) {
      const t0 = performance.now();
      const out = await execute(single(server));
      e2e[server].push(performance.now() - t0);
      if (out.result !== 3) throw new Error(`single ${server}: ${JSON.stringify(out.result)}`);
    }
  }
  for (const server of ["modern", "old"])
    console.log(`  ${server.padEnd(7)} execute with one call: ${p(e2e[server])}`);
  for (const server of ["modern", "old"]) {
    const wire = server === "modern" ? up.modern.wire : up.legacy.wire;
    const before = { init: count(wire, "initialize"), discover: count(wire, "server/discover") };
    const times = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await execute(parallel(server));
      times.push(performance.now() - t0);
    }
    console.log(
      `  ${server.padEnd(7)} execute with 8 calls in Promise.all, 20 runs: ${p(times)}; initialize ${count(wire, "initialize") - before.init}, server/discover ${count(wire, "server/discover") - before.discover}`,
    );
  }
} finally {
  await stack.stop();
}

console.log("\n== 3. Wire, whole run");
for (const [name, wire] of Object.entries({ modern: up.modern.wire, legacy: up.legacy.wire })) {
  const methods = {};
  for (const m of wire.methods) methods[m] = (methods[m] ?? 0) + 1;
  console.log(`  ${name.padEnd(7)} ${JSON.stringify(methods)}; sessions issued ${wire.sessionsIssued}`);
}
await up.close();
