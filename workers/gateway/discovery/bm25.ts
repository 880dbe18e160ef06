import { FIELDS, type FieldStems } from "./fields";

/** BM25 term-frequency saturation. */
const K1 = 1.2;

/**
 * The tools having one stem, in increasing order: `docs[i]` has it with `scores[i]`, its saturated,
 * field-weighted frequency times the stem's idf. Typed arrays: 12 bytes a posting, no object each.
 */
export interface Postings {
  docs: Uint32Array;
  scores: Float64Array;
}

/**
 * A BM25F index over documents with the fields of `FIELDS`: per field, a stem's count is weighted
 * and length-normalized, the fields are summed and the sum saturated once, so a word repeated
 * across fields counts less than twice. Everything that does not depend on the query is computed
 * here, so a query only adds up postings.
 */
export interface Bm25Index {
  size: number;
  postings: Map<string, Postings>;
}

export function buildIndex(docs: FieldStems[]): Bm25Index {
  const average = FIELDS.map(
    (_, f) => docs.reduce((sum, doc) => sum + doc[f]!.length, 0) / (docs.length || 1),
  );
  const lists = new Map<string, number[]>();
  docs.forEach((fields, doc) => {
    for (const [s, weighted] of weightedFrequencies(fields, average)) {
      const list = lists.get(s);
      if (list) list.push(doc, weighted);
      else lists.set(s, [doc, weighted]);
    }
  });
  const n = docs.length;
  const postings = new Map<string, Postings>();
  for (const [s, list] of lists) {
    const count = list.length / 2;
    const rarity = idf(n, count);
    const kept = { docs: new Uint32Array(count), scores: new Float64Array(count) };
    for (let i = 0; i < count; i++) {
      const tf = list[2 * i + 1]!;
      kept.docs[i] = list[2 * i]!;
      kept.scores[i] = (rarity * tf * (K1 + 1)) / (K1 + tf);
    }
    postings.set(s, kept);
  }
  return { size: n, postings };
}

function weightedFrequencies(doc: FieldStems, average: number[]): Map<string, number> {
  const tf = new Map<string, number>();
  FIELDS.forEach(({ weight, b }, f) => {
    const stems = doc[f]!;
    if (stems.length === 0) return;
    const norm = weight / (1 - b + (b * stems.length) / (average[f] || 1));
    for (const s of stems) tf.set(s, (tf.get(s) ?? 0) + norm);
  });
  return tf;
}

/** BM25's inverse document frequency of a stem that `df` of `n` documents have (0 when none has it). */
export function idf(n: number, df: number): number {
  return df === 0 ? 0 : Math.log(1 + (n - df + 0.5) / (df + 0.5));
}
