import { FIELDS, type FieldStems } from "./fields";

/** BM25 term-frequency saturation. */
const K1 = 1.2;

/** One tool having one stem: its saturated, field-weighted frequency, times the stem's idf. */
export interface Posting {
  doc: number;
  score: number;
}

/**
 * A BM25F index over documents with the fields of `FIELDS`: per field, a stem's count is weighted
 * and length-normalized, the fields are summed and the sum saturated once, so a word repeated
 * across fields counts less than twice. Everything that does not depend on the query is computed
 * here, so a query only adds up postings.
 */
export interface Bm25Index {
  size: number;
  postings: Map<string, Posting[]>;
}

export function buildIndex(docs: FieldStems[]): Bm25Index {
  const average = FIELDS.map(
    (_, f) => docs.reduce((sum, doc) => sum + doc[f]!.length, 0) / (docs.length || 1),
  );
  const postings = new Map<string, Posting[]>();
  docs.forEach((fields, doc) => {
    for (const [s, weighted] of weightedFrequencies(fields, average)) {
      const list = postings.get(s);
      if (list) list.push({ doc, score: weighted });
      else postings.set(s, [{ doc, score: weighted }]);
    }
  });
  const n = docs.length;
  for (const list of postings.values()) {
    const rarity = idf(n, list.length);
    for (const posting of list) posting.score = (rarity * posting.score * (K1 + 1)) / (K1 + posting.score);
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
