// Discovery quality without a gateway: workers/gateway/discovery/search.ts bundled with esbuild and
// run in Node over the 297-tool corpus (bench/discovery/servers.mjs) for every labeled intent of
// bench/discovery/intents.json, next to a textbook BM25 baseline (bench/discovery/bm25.mjs), twice: with
// each intent's own text, and with the query an agent sent for it (bench/discovery/agent-queries.json).
// Prints recall@1, recall@5 and MRR per half (tune / holdout) and overall, and in-process ranking
// latency p50/p99 per query with all 297 tools.
//
//   node scripts/bench/discovery-offline.mjs                  metrics + latency
//   node scripts/bench/discovery-offline.mjs --failures       + every intent whose first result is not accepted
//   node scripts/bench/discovery-offline.mjs --failures --half tune   only the tune half's failures
//   node scripts/bench/discovery-offline.mjs --kinds          + what kind of miss each half has, as counts
//                                                             only (no intent text: the holdout stays unread)
//   node scripts/bench/discovery-offline.mjs --json           the figures as JSON
//   node scripts/bench/discovery-offline.mjs --ref HEAD~1     search.ts of that git revision instead
//   node scripts/bench/discovery-offline.mjs --set agent      --failures / --kinds of agent-queries.json
//                                                             (each intent as the query an agent sent)
//   node scripts/bench/discovery-offline.mjs --queries bench/discovery/agent-queries-2.json
//                                                             another agent's queries in place of agent-queries.json
//                                                             (or agent-restated.json: the tasks as verb + object)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import {
  bm25Index,
  bm25Words,
  evaluate,
  fixed,
  METRIC_HEADER,
  metricRows,
  metrics,
} from "../../bench/discovery/bm25.mjs";
import {
  AUTHORS,
  corpusCatalog,
  corpusServers,
  loadAgentQueries,
  loadIntents,
} from "../../bench/discovery/servers.mjs";
import { treeAt } from "../lib/git-tree.mjs";
import { root } from "../lib/root.mjs";
import { failures, formatFailures, missKinds } from "./discovery-misses.mjs";
import { ms, percentile, table } from "./stats.mjs";

const LATENCY_ROUNDS = 5;

/**
 * search.ts as an ES module in a temp directory, imported: the working tree's, or with `ref` the one of
 * that git revision (its workers/gateway and shared, from `git archive`), to compare with a past ranking;
 * with `contents`, that module instead (see importSearch).
 */
export async function loadSearch(ref, contents) {
  const dir = mkdtempSync(join(tmpdir(), "discovery-bench-"));
  try {
    const base = ref === undefined ? root : treeAt(ref, dir, ["workers/gateway", "shared"]);
    return await importSearch(base, join(dir, "search.mjs"), contents);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The search.ts of the tree at `base`, bundled into `file` (a new name per bundle) and imported; with
 * `contents`, that module instead (TypeScript whose imports are relative to `base`).
 */
export async function importSearch(base, file, contents) {
  const bundled = await build({
    ...(contents === undefined
      ? { entryPoints: [join(base, "workers/gateway/discovery/search.ts")] }
      : { stdin: { contents, resolveDir: base, loader: "ts" } }),
    bundle: true,
    write: false,
    format: "esm",
    // another module may use packages written for Node (the converter's $ref parser)
    platform: contents === undefined ? "neutral" : "node",
    nodePaths: [join(root, "node_modules")],
    logLevel: "silent",
  });
  writeFileSync(file, bundled.outputFiles[0].text);
  return await import(pathToFileURL(file).href);
}

/** Per-query latencies (ms) of `rank` over every intent: one warm-up round, then LATENCY_ROUNDS. */
function timeRanking(rank, intents) {
  for (const intent of intents) rank(intent.intent);
  const latencies = [];
  for (let round = 0; round < LATENCY_ROUNDS; round++)
    for (const intent of intents) {
      const t0 = performance.now();
      rank(intent.intent);
      latencies.push(performance.now() - t0);
    }
  return latencies;
}

export async function runDiscoveryOffline({
  showFailures = false,
  half,
  json = false,
  ref,
  kinds = false,
  set = "tasks",
  queriesFile,
} = {}) {
  const search = await loadSearch(ref);
  const catalog = corpusCatalog();
  // The servers' names and descriptions, as the gateway has them from the team's configuration (one
  // array, so search.ts's per-catalog index cache holds; a ranking that does not take them ignores them).
  const servers = corpusServers().map(({ name, description }) => ({ name, description }));
  const intents = loadIntents();
  const asSearched = loadAgentQueries(intents, queriesFile);
  const rankSearch = (query) =>
    search.rankCatalog(catalog, { query, servers }).map((tool) => tool.qualifiedName);
  const bm25 = bm25Index(catalog);
  const rankBm25 = (query) => bm25.rank(query);

  const ours = await evaluate(rankSearch, intents);
  const baseline = await evaluate(rankBm25, intents);
  const agent = {
    ours: await evaluate(rankSearch, asSearched),
    baseline: await evaluate(rankBm25, asSearched),
  };
  const latency = timeRanking(rankSearch, intents);
  const bm25Latency = timeRanking(rankBm25, intents);
  const [shown, shownOurs, shownBaseline] =
    set === "agent" ? [asSearched, agent.ours, agent.baseline] : [intents, ours, baseline];
  const ourFailures = failures(
    shown.filter((i) => half === undefined || i.half === half),
    shownOurs,
  );

  if (json) {
    const strip = ({ tune, holdout, all }) => ({ tune, holdout, all });
    console.log(
      JSON.stringify(
        {
          ranking: ref ?? "working tree",
          tools: catalog.length,
          intents: intents.length,
          search_tools: strip(ours),
          bm25: strip(baseline),
          agentQueries: { search_tools: strip(agent.ours), bm25: strip(agent.baseline) },
          latencyMs: { p50: percentile(latency, 50), p99: percentile(latency, 99) },
          bm25LatencyMs: { p50: percentile(bm25Latency, 50), p99: percentile(bm25Latency, 99) },
          ...(showFailures && { failures: ourFailures }),
          ...(kinds && { missKinds: missKinds(shown, shownOurs, shownBaseline) }),
        },
        null,
        2,
      ),
    );
    return { ours, baseline, agent, latency };
  }

  const tune = intents.filter((i) => i.half === "tune").length;
  console.log(
    `Discovery quality, in process (search.ts of ${ref ?? "the working tree"}): ${catalog.length} corpus tools, ${intents.length} intents ` +
      `(${tune} tune, ${intents.length - tune} holdout)\n`,
  );
  console.log(`the intents' own text (the task as a user gives it):\n${metricTable(ours, baseline)}`);
  const byAuthor = AUTHORS.flatMap((author) =>
    ["tune", "holdout"].flatMap((part) => {
      const picked = intents.filter((i) => i.author === author && i.half === part);
      if (picked.length === 0) return [];
      return [
        [String(author), part, String(picked.length), ...share(picked, ours), ...share(picked, baseline)],
      ];
    }),
  );
  console.log(
    `\nby who wrote them (1 with the ranking; 2 and 3 blind to it and to each other):\n${table(
      ["author", "half", "intents", "ours @1", "ours @5", "BM25 @1", "BM25 @5"],
      byAuthor,
    )}`,
  );
  const agentSet =
    queriesFile === undefined
      ? "the query an agent sent for each intent (agent-queries.json, "
      : `each intent as ${queriesFile} has it (`;
  console.log(`\n${agentSet}written blind to the corpus):\n${metricTable(agent.ours, agent.baseline)}`);
  const naming = toolNameWords(catalog);
  const rows = [];
  for (const [label, pick] of [
    ["holds the tool's name words", (i) => namesTool(i, naming)],
    ["does not", (i) => !namesTool(i, naming)],
  ])
    for (const part of ["tune", "holdout"]) {
      const picked = asSearched.filter((i) => i.half === part && pick(i));
      rows.push([
        label,
        part,
        String(picked.length),
        ...share(picked, agent.ours),
        ...share(picked, agent.baseline),
      ]);
    }
  console.log(
    `of those, the queries that hold every word of an accepted tool's name (words most of a server's tools share left out) and the rest:\n${table(
      ["agent queries", "half", "intents", "ours @1", "ours @5", "BM25 @1", "BM25 @5"],
      rows,
    )}`,
  );
  console.log(
    `\nranking latency per query (${catalog.length} tools, ${latency.length} queries): ` +
      `search.ts p50 ${ms(percentile(latency, 50))}, p99 ${ms(percentile(latency, 99))}; ` +
      `BM25 (prebuilt index) p50 ${ms(percentile(bm25Latency, 50))}, p99 ${ms(percentile(bm25Latency, 99))}`,
  );
  if (kinds) {
    const byHalf = missKinds(shown, shownOurs, shownBaseline);
    const names = Object.keys(byHalf.tune);
    console.log(
      `\nsearch_tools misses at rank 1 by kind (${set}; counts only)\n${table(
        ["half", ...names],
        Object.entries(byHalf).map(([name, k]) => [name, ...names.map((n) => String(k[n]))]),
      )}`,
    );
  }
  if (showFailures) {
    console.log(
      `\nsearch_tools misses at rank 1 (${set}${half ? `, ${half} half` : ""}): ${ourFailures.length}\n` +
        formatFailures(ourFailures),
    );
  }
  return { ours, baseline, agent, latency };
}

/** Each tool's name words, without words a third or more of its server's tool names share (`browser_`, `API-`). */
function toolNameWords(catalog) {
  const byServer = new Map();
  for (const tool of catalog) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
  const naming = new Map();
  for (const tools of byServer.values()) {
    const counts = new Map();
    for (const tool of tools)
      for (const w of new Set(bm25Words(tool.name))) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (const tool of tools)
      naming.set(
        tool.qualifiedName,
        bm25Words(tool.name).filter((w) => counts.get(w) < tools.length / 3),
      );
  }
  return naming;
}

/** Whether the query holds every name word of a tool the intent accepts. */
function namesTool(intent, naming) {
  const query = new Set(bm25Words(intent.intent));
  return intent.accept.some((name) => {
    const own = naming.get(name) ?? [];
    return own.length > 0 && own.every((w) => query.has(w));
  });
}

/** recall@1 and recall@5 of `evaluation` over `intents`, formatted. */
function share(intents, evaluation) {
  const m = metrics(intents.map((i) => evaluation.ranks[i.id]));
  return [fixed(m.recall1), fixed(m.recall5)];
}

const metricTable = (ours, baseline) =>
  table(
    METRIC_HEADER,
    metricRows([
      ["search_tools (search.ts)", ours],
      ["BM25 baseline", baseline],
    ]),
  );

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      failures: { type: "boolean", default: false },
      half: { type: "string" },
      json: { type: "boolean", default: false },
      kinds: { type: "boolean", default: false },
      ref: { type: "string" },
      set: { type: "string", default: "tasks" },
      queries: { type: "string" },
    },
  });
  if (values.half !== undefined && values.half !== "tune" && values.half !== "holdout") {
    console.error('--half must be "tune" or "holdout"');
    process.exit(2);
  }
  if (values.set !== "tasks" && values.set !== "agent") {
    console.error('--set must be "tasks" (the intents\' text) or "agent" (agent-queries.json)');
    process.exit(2);
  }
  await runDiscoveryOffline({
    set: values.set,
    queriesFile: values.queries,
    showFailures: values.failures,
    half: values.half,
    json: values.json,
    ref: values.ref,
    kinds: values.kinds,
  });
}
