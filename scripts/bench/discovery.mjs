// Section 7: discovery quality over real upstreams. The 22 servers of the 297-tool corpus are served
// on loopback (scripts/bench/corpus-upstream.mjs) and given to a team `bench-corpus` made through
// /admin with its own key; every labeled intent of bench/discovery/intents.json is asked of
// `GET /v1/tools?q=…` (the same ranking as `search_tools`), once in its own words and once as the query
// an agent sent for it (bench/discovery/agent-queries.json). Prints recall@1, recall@5 and MRR per half
// (tune / holdout) and overall for search_tools and for a textbook BM25 (bench/discovery/bm25.mjs),
// search latency p50/p99 with the 297 tools cached (client-side, `limit=10&detail=name`), and the
// tokens of that team's tier-1 tools/list over MCP (the budget is 1,000). Deletes the team at the end.
//
// The gateway fetches the corpus upstream at 127.0.0.1, so it must run on this machine:
//   node scripts/bench/discovery.mjs [--url http://127.0.0.1:8787] [--admin-token X]
// (the token defaults to $ADMIN_TOKEN, else ADMIN_TOKEN in .dev.vars, which `npm run dev` writes).
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { bm25Index, evaluate, METRIC_HEADER, MRR_DEPTH, metricRows } from "../../bench/discovery/bm25.mjs";
import { corpusCatalog, loadAgentQueries, loadIntents } from "../../bench/discovery/servers.mjs";
import { readDevVar } from "../lib/dev-vars.mjs";
import { countTokens } from "../lib/tokens.mjs";
import { admin } from "./admin-api.mjs";
import { startCorpusUpstream } from "./corpus-upstream.mjs";
import { gatewayClient } from "./gateway-client.mjs";
import { ms, percentile, table } from "./stats.mjs";

const TEAM = "bench-corpus";
const TIER1_BUDGET = 1_000;
/** Latency rounds over every intent (each a `limit=10&detail=name` search, as an agent would ask). */
const LATENCY_ROUNDS = 3;
const LATENCY_LIMIT = 10;

const searchPath = (query, limit) =>
  `/v1/tools?${new URLSearchParams({ q: query, limit: String(limit), detail: "name" })}`;

/** Prints the section; resolves to the figures. */
export async function runDiscovery({ base, adminToken }) {
  console.log("\n== 7. Discovery quality: search_tools over the 297-tool corpus as real upstreams");
  const intents = loadIntents();
  const asSearched = loadAgentQueries(intents);
  const catalog = corpusCatalog();
  const upstream = await startCorpusUpstream();
  let created = false;
  try {
    const servers = Object.fromEntries(
      upstream.servers.map((s) => [s.name, { url: upstream.url(s.name), description: s.description }]),
    );
    await admin(base, adminToken, "PUT", `/teams/${TEAM}`, {
      servers,
      // ~1,000 searches in a few seconds: not what the per-key rate limit is for.
      limits: { requestsPerMinute: 1_000_000 },
    });
    created = true;
    const { key } = await admin(base, adminToken, "POST", `/teams/${TEAM}/keys`, { name: "bench" });
    const gw = gatewayClient(base, key);

    // Warm the schema cache (every upstream's tools/list into KV), then check the whole corpus is there.
    await gw.get(searchPath("warm up", 1));
    const listed = await gw.get("/v1/tools?detail=name&limit=1");
    if (listed.total !== catalog.length || listed.warnings?.length)
      throw new Error(
        `team ${TEAM} sees ${listed.total} tools, expected ${catalog.length}` +
          (listed.warnings?.length ? `; warnings: ${listed.warnings.join("; ")}` : ""),
      );

    // Quality: the first MRR_DEPTH results of each intent (the offline bench and BM25 use the same depth).
    const rankGateway = async (query) =>
      (await gw.get(searchPath(query, MRR_DEPTH))).tools.map((t) => t.name);
    const ours = await evaluate(rankGateway, intents);
    const bm25 = bm25Index(catalog);
    const baseline = await evaluate((query) => bm25.rank(query), intents);
    const agent = {
      ours: await evaluate(rankGateway, asSearched),
      baseline: await evaluate((query) => bm25.rank(query), asSearched),
    };

    // Latency: what an agent's search costs, 297 tools cached; the answer must be the same top 10.
    const latencies = [];
    for (let round = 0; round < LATENCY_ROUNDS; round++)
      for (const intent of intents) {
        const t0 = performance.now();
        const found = await gw.get(searchPath(intent.intent, LATENCY_LIMIT));
        latencies.push(performance.now() - t0);
        const top = found.tools.map((t) => t.name).join(",");
        if (top !== ours.results[intent.id].slice(0, LATENCY_LIMIT).join(","))
          throw new Error(`"${intent.intent}": limit=${LATENCY_LIMIT} is not the head of limit=${MRR_DEPTH}`);
      }

    // Tier 1: what an MCP client of this team loads up front.
    const session = await gw.openMcpSession();
    const tier1 = (await gw.rpc(session, "tools/list", {})).tools;
    const tier1Tokens = countTokens(JSON.stringify(tier1));
    await fetch(`${base}/mcp`, { method: "DELETE", headers: { ...session, "x-api-key": key } }).catch(
      () => {},
    );

    const tune = intents.filter((i) => i.half === "tune").length;
    console.log(
      `team ${TEAM}: ${upstream.servers.length} loopback upstreams, ${listed.total} tools; ` +
        `${intents.length} intents (${tune} tune, ${intents.length - tune} holdout)`,
    );
    const metrics = (mine, bm25Result) =>
      table(
        METRIC_HEADER,
        metricRows([
          ["search_tools (GET /v1/tools)", mine],
          ["BM25 (name+title+description+params)", bm25Result],
        ]),
      );
    console.log(`the intents' own text (the task as a user gives it):\n${metrics(ours, baseline)}`);
    console.log(
      `the query an agent sent for each intent (bench/discovery/agent-queries.json, written blind to the corpus):\n${metrics(agent.ours, agent.baseline)}`,
    );
    console.log(
      `recall@k: an accepted tool in the top k; MRR: 1/rank of the first accepted tool (0 beyond ${MRR_DEPTH})`,
    );
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log(
      `search latency (client-side, ${catalog.length} tools cached, ${latencies.length} searches, ` +
        `limit=${LATENCY_LIMIT}&detail=name): p50 ${ms(p50)}, p99 ${ms(p99)}`,
    );
    console.log(
      `tier-1 tools/list for ${TEAM} (${tier1.map((t) => t.name).join(", ")}): ${tier1Tokens} tokens ` +
        (tier1Tokens <= TIER1_BUDGET
          ? `(within the ${TIER1_BUDGET.toLocaleString("en-US")}-token budget)`
          : `— OVER the ${TIER1_BUDGET.toLocaleString("en-US")}-token budget`),
    );
    return { ours, baseline, agent, latency: { p50, p99 }, tier1Tokens };
  } finally {
    if (created) await admin(base, adminToken, "DELETE", `/teams/${TEAM}`).catch(() => {});
    await upstream.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      url: { type: "string", default: process.env.GATEWAY_URL ?? "http://127.0.0.1:8787" },
      "admin-token": { type: "string" },
    },
  });
  const adminToken = values["admin-token"] ?? process.env.ADMIN_TOKEN ?? readDevVar("ADMIN_TOKEN");
  if (!adminToken) {
    console.error("discovery: no admin token: pass --admin-token, set ADMIN_TOKEN, or run npm run dev once");
    process.exit(2);
  }
  try {
    await runDiscovery({ base: values.url.replace(/\/+$/, ""), adminToken });
  } catch (err) {
    console.error(`discovery bench failed: ${err instanceof Error ? (err.stack ?? err.message) : err}`);
    process.exit(1);
  }
}
