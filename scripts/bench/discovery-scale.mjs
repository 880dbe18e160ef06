// Section 11: discovery at scale. One team's catalog of 1,000, 5,000 and 10,000 tools made from real
// API descriptions (bench/discovery/openapi-apis.mjs: Stripe, Twilio, GitHub, then other APIs of the
// APIs.guru directory, the last one cut to make the count), each through the gateway's converter. Per
// size, in this Node process with the gateway's discovery code bundled: the index build (catalogIndex,
// done once per catalog version and isolate) in ms and its heap, the catalog as JSON (what the schema
// cache holds) and its parse time, search_tools p50/p99 per request (searchTools over a new catalog
// array each time, as each gateway request has one, its index found by the catalog's version) and its
// mean CPU time (wall times on a loaded machine say little), the tokens of a search answer, and recall@1/@5
// and MRR of bench/discovery/openapi-intents.json (the intents whose API is in the catalog) for
// search.ts and BM25. The tier-1 tools/list does not hold the team's tools: bench.mjs passes its
// tokens from the running gateway.
//
//   node --expose-gc scripts/bench/discovery-scale.mjs [--sizes 1000,5000,10000] [--rounds 3]
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { bm25Index, evaluate, fixed } from "../../bench/discovery/bm25.mjs";
import {
  descriptionsDir,
  FILLER_APIS,
  INTENT_APIS,
  loadOpenapiIntents,
} from "../../bench/discovery/openapi-apis.mjs";
import { countTokens } from "../lib/tokens.mjs";
import { loadSearch } from "./discovery-offline.mjs";
import { buildCatalog, loadConverter, metricCells } from "./discovery-openapi.mjs";
import { int, ms, percentile, table } from "./stats.mjs";

const SEARCH_P99_TARGET_MS = 50;
const RECALL5_TARGET = 0.9;
const TIER1_BUDGET = 1_000;
const DISCOVERY = `
export { searchTools } from "./workers/gateway/discovery/service.ts";
export { catalogIndex } from "./workers/gateway/discovery/catalog-index.ts";
export { rankCatalog } from "./workers/gateway/discovery/search.ts";
`;

/** bench.mjs: runs the section in a child Node with --expose-gc, so heap figures are its own. */
export function runDiscoveryScale({ tier1Tokens, sizes, rounds } = {}) {
  console.log(
    "\n== 11. Discovery at scale: 1,000 / 5,000 / 10,000 tools from real API descriptions, in one team",
  );
  const args = [
    "--expose-gc",
    fileURLToPath(import.meta.url),
    ...(sizes ? ["--sizes", sizes] : []),
    ...(rounds ? ["--rounds", String(rounds)] : []),
    ...(tier1Tokens === undefined ? [] : ["--tier1", String(tier1Tokens)]),
  ];
  execFileSync(process.execPath, args, { stdio: "inherit" });
}

/**
 * GitHub's REST description as the gateway takes it once per version (openapi/index-store.ts): its
 * text converted to tools (describeApi: JSON parse, $refs, schemas) and the discovery index of those
 * tools alone; times, the heap each keeps, the heap just after conversion before any collection (near
 * its peak), and the tools' JSON (what the schema cache holds).
 */
async function oneDescription(describeApi, discovery, file) {
  const text = readFileSync(join(descriptionsDir(), file), "utf8");
  const base = heap();
  const c0 = performance.now();
  const api = await describeApi(text);
  const convertMs = performance.now() - c0;
  const peak = process.memoryUsage().heapUsed - base;
  const tools = api.tools.map((tool) => ({
    ...tool,
    server: "github",
    qualifiedName: `github.${tool.name}`,
  }));
  const kept = heap() - base;
  const i0 = performance.now();
  discovery.catalogIndex(tools, [{ name: "github", description: api.info.title }], `one ${file}`);
  const indexMs = performance.now() - i0;
  const index = heap() - base - kept;
  return table(
    [
      "description",
      "bytes",
      "operations → tools",
      "convert",
      "heap after (peak) / kept",
      "tools JSON",
      "index build",
      "index heap",
    ],
    [
      [
        file.split("/").pop(),
        mb(text.length),
        `${int(Object.keys(api.operations).length)} → ${int(tools.length)}`,
        ms(convertMs),
        `${mb(peak)} / ${mb(kept)}`,
        mb(JSON.stringify(api.tools).length),
        ms(indexMs),
        mb(index),
      ],
    ],
  );
}

const heap = () => {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
};
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main({ sizes, rounds, tier1 }) {
  if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");
  const { describeApi } = await loadConverter();
  const discovery = await loadSearch(undefined, DISCOVERY);
  const max = Math.max(...sizes);
  const t0 = performance.now();
  const pool = await buildCatalog(describeApi, { ...INTENT_APIS, ...FILLER_APIS }, max);
  const convertMs = performance.now() - t0;
  if (pool.tools.length < max)
    throw new Error(`the descriptions make ${pool.tools.length} tools, fewer than ${max}`);
  const intents = loadOpenapiIntents(pool.byApi);
  const intentOf = new Map(intents.map((intent) => [intent.intent, intent]));
  console.log(await oneDescription(describeApi, discovery, INTENT_APIS.github));
  console.log(
    `${pool.servers.length} API descriptions → ${int(pool.tools.length)} tools (converted in ${(convertMs / 1000).toFixed(1)} s; ` +
      `the gateway does this once per description version); ${intents.length} intents; ${rounds} search rounds per intent`,
  );
  const rows = [];
  const quality = [];
  for (const size of sizes) {
    const tools = pool.tools.slice(0, size);
    const present = new Set(tools.map((tool) => tool.server));
    const servers = pool.servers.filter((server) => present.has(server.name));
    const states = servers.map((server) => ({ ...server, state: "ok" }));
    const names = new Set(tools.map((tool) => tool.qualifiedName));
    const picked = intents.filter((intent) => intent.accept.some((name) => names.has(name)));

    const json = JSON.stringify(tools);
    const p0 = performance.now();
    JSON.parse(json);
    const parseMs = performance.now() - p0;

    // The catalog's version as loadCatalog writes it: the team, then each server's list version.
    const version = `bench ${servers.map((server) => `${server.name}:${size}`).join(" ")}`;
    const before = heap();
    const b0 = performance.now();
    discovery.catalogIndex(tools, servers, version);
    const buildMs = performance.now() - b0;
    const indexHeap = heap() - before;

    // Per request as the gateway has it (a new catalog array, its index found by the catalog's version),
    // and with the index found at once (the same array, as within one request).
    const latencies = [];
    const indexed = [];
    const answerTokens = [];
    const same = { tools, servers: states, version };
    const cpu0 = process.cpuUsage();
    for (let round = 0; round < rounds; round++)
      for (const intent of picked) {
        const catalog = { tools: [...tools], servers: states, version };
        const s0 = performance.now();
        const answer = discovery.searchTools(catalog, { query: intent.intent });
        const s1 = performance.now();
        discovery.searchTools(same, { query: intent.intent });
        indexed.push(performance.now() - s1);
        latencies.push(s1 - s0);
        if (round === 0) answerTokens.push(countTokens(JSON.stringify(answer)));
      }
    const cpu = process.cpuUsage(cpu0);
    const cpuPerSearch = (cpu.user + cpu.system) / 1000 / (latencies.length + indexed.length);
    const bm25 = bm25Index(tools);
    const ours = await evaluate(
      (query) => discovery.rankCatalog(tools, { query, servers, version }).map((tool) => tool.qualifiedName),
      picked,
    );
    const baseline = await evaluate((query) => bm25.rank(query), picked);
    // The API said (as search_tools' `server`): what ranking within the right API alone gives.
    const given = await evaluate(
      (query) =>
        discovery
          .rankCatalog(tools, { query, servers, version, server: intentOf.get(query)?.api })
          .map((tool) => tool.qualifiedName),
      picked,
    );
    const p99 = percentile(latencies, 99);
    rows.push([
      int(size),
      String(servers.length),
      ms(buildMs),
      mb(indexHeap),
      `${mb(json.length)} / ${ms(parseMs)}`,
      ms(percentile(latencies, 50)),
      `${ms(p99)}${p99 <= SEARCH_P99_TARGET_MS ? "" : " (over 50)"}`,
      `${ms(percentile(indexed, 50))} / ${ms(percentile(indexed, 99))}`,
      ms(cpuPerSearch),
      int(percentile(answerTokens, 50)),
    ]);
    for (const [label, result, half] of [
      ["search_tools (search.ts)", ours, "all"],
      ["  tune half (even ids)", ours, "tune"],
      ["  held-out half (odd ids)", ours, "holdout"],
      ["  the API given as `server`", given, "all"],
      ["BM25 baseline", baseline, "all"],
    ])
      quality.push([int(size), label, String(result[half].n), ...metricCells(result[half])]);
    const r5 = ours.all.recall5;
    if (size >= 5_000 && r5 < RECALL5_TARGET)
      quality.push([
        int(size),
        `  recall@5 under the ${RECALL5_TARGET} target by ${fixed(RECALL5_TARGET - r5)}`,
        "",
        "",
        "",
        "",
      ]);
  }
  console.log(
    table(
      [
        "tools",
        "APIs",
        "index build",
        "index heap",
        "catalog JSON / parse",
        "search p50",
        "search p99",
        "index found: p50 / p99",
        "search CPU (mean)",
        "answer tokens p50",
      ],
      rows,
    ),
  );
  console.log(`\n${table(["tools", "ranking", "intents", "recall@1", "recall@5", "MRR"], quality)}`);
  console.log(
    tier1 === undefined
      ? "\ntier-1 tools/list: not measured here (bench.mjs section 11 passes it from the running gateway); it lists no upstream tool, so it does not grow with the catalog"
      : `\ntier-1 tools/list: ${tier1} tokens at every size (it lists no upstream tool) ${tier1 <= TIER1_BUDGET ? "within" : "OVER"} the ${int(TIER1_BUDGET)}-token budget`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "1000,5000,10000" },
      rounds: { type: "string", default: "3" },
      tier1: { type: "string" },
    },
  });
  const sizes = values.sizes.split(",").map(Number);
  const rounds = Number(values.rounds);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(rounds) || rounds < 1) {
    console.error("--sizes takes positive integers (1000,5000,10000), --rounds a positive integer");
    process.exit(2);
  }
  await main({ sizes, rounds, tier1: values.tier1 === undefined ? undefined : Number(values.tier1) });
}
