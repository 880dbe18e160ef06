// Discovery quality on APIs the ranking was never tuned on: the 220 intents of
// bench/discovery/openapi-intents.json (written before any ranking ran on these APIs) over the tools of
// GitHub's, Stripe's and Twilio's API descriptions (bench/discovery/openapi-apis.mjs, through the
// gateway's converter), each API alone and the three in one catalog. Prints recall@1, recall@5 and MRR
// of search.ts (as search_tools ranks) beside the textbook BM25 of bench/discovery/bm25.mjs.
//
//   node scripts/bench/discovery-openapi.mjs                 the table
//   node scripts/bench/discovery-openapi.mjs --ref HEAD~1    search.ts of that git revision
//   node scripts/bench/discovery-openapi.mjs --failures      + each intent whose first result is not accepted
//   node scripts/bench/discovery-openapi.mjs --json          the figures as JSON
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { bm25Index, evaluate, fixed } from "../../bench/discovery/bm25.mjs";
import { apiTools, INTENT_APIS, loadOpenapiIntents } from "../../bench/discovery/openapi-apis.mjs";
import { loadSearch } from "./discovery-offline.mjs";
import { table } from "./stats.mjs";

/** The gateway's converter (working tree), bundled for Node. */
export const loadConverter = () =>
  loadSearch(undefined, 'export { describeApi } from "./workers/gateway/openapi/describe.ts";');

/**
 * The tools of `apis` (server name → description file) in that order, the servers as search.ts takes
 * them (name, description: the API's title), and each API's operationId → qualified name map; with
 * `enough`, the APIs after the one that makes that many tools are left out.
 */
export async function buildCatalog(describeApi, apis, enough = Number.POSITIVE_INFINITY) {
  const tools = [];
  const servers = [];
  const byApi = new Map();
  for (const [server, file] of Object.entries(apis)) {
    if (tools.length >= enough) break;
    const api = await apiTools(describeApi, server, file);
    tools.push(...api.tools);
    servers.push({ name: server, description: api.title });
    byApi.set(server, api.byOperationId);
  }
  return { tools, servers, byApi };
}

/** recall@1/@5 and MRR of search.ts and BM25 for `intents` over `tools`. */
export async function compareRankings(search, tools, servers, intents) {
  const bm25 = bm25Index(tools);
  const ours = await evaluate(
    (query) => search.rankCatalog(tools, { query, servers }).map((tool) => tool.qualifiedName),
    intents,
  );
  const baseline = await evaluate((query) => bm25.rank(query), intents);
  return { ours, baseline };
}

export async function runOpenapiQuality({ ref, showFailures = false, json = false } = {}) {
  const { describeApi } = await loadConverter();
  const search = await loadSearch(ref);
  const all = await buildCatalog(describeApi, INTENT_APIS);
  const intents = loadOpenapiIntents(all.byApi);
  const rows = [];
  const figures = {};
  const misses = [];
  const catalogs = [
    ...Object.keys(INTENT_APIS).map((api) => [api, [api]]),
    ["all three", Object.keys(INTENT_APIS)],
  ];
  for (const [label, apis] of catalogs) {
    const tools = all.tools.filter((tool) => apis.includes(tool.server));
    const servers = all.servers.filter((server) => apis.includes(server.name));
    const picked = intents.filter((intent) => apis.includes(intent.api));
    const { ours, baseline } = await compareRankings(search, tools, servers, picked);
    figures[label] = { tools: tools.length, intents: picked.length, ours: ours.all, bm25: baseline.all };
    for (const [name, result] of [
      ["search_tools (search.ts)", ours],
      ["BM25 baseline", baseline],
    ])
      rows.push([label, String(tools.length), name, String(picked.length), ...metricCells(result.all)]);
    if (label === "all three")
      for (const intent of picked)
        if (ours.ranks[intent.id] !== 1)
          misses.push(
            `${intent.id} (rank ${ours.ranks[intent.id] || "-"}) ${intent.intent}\n    want ${intent.accept.join(" | ")}\n    got  ${ours.results[intent.id].slice(0, 3).join(", ")}`,
          );
  }
  if (json) {
    console.log(JSON.stringify({ ranking: ref ?? "working tree", figures }, null, 2));
    return figures;
  }
  console.log(
    `Discovery on unseen APIs (search.ts of ${ref ?? "the working tree"}): ${intents.length} intents of bench/discovery/openapi-intents.json\n` +
      table(["catalog", "tools", "ranking", "intents", "recall@1", "recall@5", "MRR"], rows),
  );
  if (showFailures) console.log(`\nmisses at rank 1 (all three): ${misses.length}\n${misses.join("\n")}`);
  return figures;
}

export const metricCells = (m) => [fixed(m.recall1), fixed(m.recall5), fixed(m.mrr)];

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      ref: { type: "string" },
      failures: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
    },
  });
  await runOpenapiQuality({ ref: values.ref, showFailures: values.failures, json: values.json });
}
