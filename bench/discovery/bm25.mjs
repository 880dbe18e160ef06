// A textbook BM25 baseline (k1 = 1.2, b = 0.75) over one bag of words per tool: name + title +
// description + input parameter names, split at non-alphanumerics and camelCase boundaries, lowercased;
// no stemming, no stopwords, no synonyms. And the metrics every discovery bench reports.

const K1 = 1.2;
const B = 0.75;
/** MRR counts the first accepted tool only within this many results. */
export const MRR_DEPTH = 100;

/** `listIssues`, `get-sum`, `HTTPServer2`, prose → lowercase words. */
export function bm25Words(text) {
  return String(text ?? "")
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

function documentOf(tool) {
  const params = Object.keys(tool.inputSchema?.properties ?? {});
  return bm25Words([tool.name, tool.title, tool.description, ...params].filter(Boolean).join(" "));
}

/**
 * An index over `tools` (CatalogTool-like: name, title?, description?, inputSchema, qualifiedName);
 * `rank(query)` → every tool with a positive score, best first, ties by qualified name.
 */
export function bm25Index(tools) {
  const docs = tools.map((tool) => {
    const terms = documentOf(tool);
    const tf = new Map();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { tool, tf, length: terms.length };
  });
  const n = docs.length;
  const avgdl = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
  const df = new Map();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t) => {
    const f = df.get(t) ?? 0;
    return Math.log(1 + (n - f + 0.5) / (f + 0.5));
  };
  return {
    rank(query) {
      const terms = bm25Words(query);
      return docs
        .map((d) => {
          let score = 0;
          for (const t of terms) {
            const f = d.tf.get(t);
            if (!f) continue;
            score += (idf(t) * (f * (K1 + 1))) / (f + K1 * (1 - B + (B * d.length) / avgdl));
          }
          return { tool: d.tool, score };
        })
        .filter((hit) => hit.score > 0)
        .sort(
          (a, b) =>
            b.score - a.score ||
            (a.tool.qualifiedName < b.tool.qualifiedName
              ? -1
              : a.tool.qualifiedName > b.tool.qualifiedName
                ? 1
                : 0),
        )
        .map((hit) => hit.tool.qualifiedName);
    },
  };
}

/** 1-based rank of the first accepted name in `ranked` (within MRR_DEPTH), or 0. */
export function firstHit(ranked, accept) {
  const ok = new Set(accept);
  const i = ranked.slice(0, MRR_DEPTH).findIndex((name) => ok.has(name));
  return i + 1;
}

/** recall@1, recall@5 and MRR of first-hit `ranks` (firstHit), with their count. */
export function metrics(ranks) {
  const n = ranks.length;
  if (n === 0) return { n, recall1: Number.NaN, recall5: Number.NaN, mrr: Number.NaN };
  return {
    n,
    recall1: ranks.filter((r) => r === 1).length / n,
    recall5: ranks.filter((r) => r >= 1 && r <= 5).length / n,
    mrr: ranks.reduce((sum, r) => sum + (r > 0 ? 1 / r : 0), 0) / n,
  };
}

/**
 * `rank(intentText)` → qualified names best first (may be async). Resolves to
 * `{ tune, holdout, all }`, each `{ n, recall1, recall5, mrr }`, plus `ranks` (per intent id: 1-based
 * rank of the first accepted tool, 0 if none in the top MRR_DEPTH) and `results` (per id: the ranking).
 */
export async function evaluate(rank, intents) {
  const ranks = {};
  const results = {};
  for (const intent of intents) {
    const ranked = await rank(intent.intent);
    results[intent.id] = ranked;
    ranks[intent.id] = firstHit(ranked, intent.accept);
  }
  const of = (half) =>
    metrics(intents.filter((i) => half === undefined || i.half === half).map((i) => ranks[i.id]));
  return { tune: of("tune"), holdout: of("holdout"), all: of(undefined), ranks, results };
}

export const fixed = (n) => (Number.isNaN(n) ? "–" : n.toFixed(3));

/** Rows for stats.mjs `table`: one per ranker and half, given `[[label, evaluation], …]`. */
export function metricRows(rankers) {
  const rows = [];
  for (const half of ["tune", "holdout", "all"])
    for (const [label, result] of rankers) {
      const m = result[half];
      rows.push([label, half, m.n, fixed(m.recall1), fixed(m.recall5), fixed(m.mrr)]);
    }
  return rows;
}

export const METRIC_HEADER = ["ranking", "half", "intents", "recall@1", "recall@5", "MRR"];
