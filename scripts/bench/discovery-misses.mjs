// The misses of a discovery evaluation (scripts/bench/discovery-offline.mjs): each intent whose first
// result is not accepted, and the kinds of miss of each half as counts only.
import { serverOf } from "../../bench/discovery/servers.mjs";

/** Failures of one evaluation: intents whose first result is not accepted. */
export function failures(intents, evaluation) {
  return intents
    .filter((intent) => evaluation.ranks[intent.id] !== 1)
    .map((intent) => ({
      id: intent.id,
      half: intent.half,
      intent: intent.intent,
      expected: intent.accept,
      rank: evaluation.ranks[intent.id],
      got: evaluation.results[intent.id].slice(0, 3),
    }));
}

/** Where a missed intent's first accepted tool ranked: name, lowest rank, highest rank. */
const RANK_BUCKETS = [
  ["#2", 2, 2],
  ["#3-5", 3, 5],
  ["#6-20", 6, 20],
  ["#21+", 21, Number.POSITIVE_INFINITY],
];

/**
 * The misses of each half as counts, no text: where the first accepted tool ranked, whether the tool
 * ranked first is of a server the intent accepts (a sibling taken for it) or of another server, and
 * how many of the misses BM25 gets right. Shows the kind of miss on the holdout without reading it.
 */
export function missKinds(intents, evaluation, baseline) {
  const kinds = {};
  for (const half of ["tune", "holdout"]) {
    const k = {
      intents: 0,
      misses: 0,
      ...Object.fromEntries(RANK_BUCKETS.map(([name]) => [name, 0])),
      none: 0,
      "sibling first": 0,
      "other server first": 0,
      "BM25 right": 0,
    };
    for (const intent of intents.filter((i) => i.half === half)) {
      k.intents++;
      const rank = evaluation.ranks[intent.id];
      if (rank === 1) continue;
      k.misses++;
      k[RANK_BUCKETS.find(([, low, high]) => rank >= low && rank <= high)?.[0] ?? "none"]++;
      const first = evaluation.results[intent.id][0];
      const accepted = new Set(intent.accept.map(serverOf));
      k[first !== undefined && accepted.has(serverOf(first)) ? "sibling first" : "other server first"]++;
      if (baseline.ranks[intent.id] === 1) k["BM25 right"]++;
    }
    kinds[half] = k;
  }
  return kinds;
}

export function formatFailures(list) {
  return list
    .map(
      (f) =>
        `[${f.half}] ${f.id}: "${f.intent}"\n` +
        `    expected: ${f.expected.join(", ")}  (first accepted at ${f.rank > 0 ? `#${f.rank}` : "—"})\n` +
        `    got:      ${f.got.length > 0 ? f.got.join(", ") : "(nothing)"}`,
    )
    .join("\n");
}
