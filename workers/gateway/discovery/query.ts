import { synonyms } from "./synonyms";
import { terms } from "./terms";
import { verbGroup } from "./verbs";

/** How much a synonym or a verb of the same group counts, next to the word itself. */
export const SYNONYM = 0.7;
/** How much a longer word counts for a query word that no tool has (`cust` → `customers`). */
const PREFIX = 0.4;
const MAX_PREFIXED = 20;

/** One thing the query asks for: its words as typed, and the stems that count for it, with weights. */
export interface Concept {
  label: string;
  stems: Map<string, number>;
}

export interface Query {
  concepts: Concept[];
  /** the verb group of the query's first action verb */
  verb?: string;
}

/** The query's concepts (one per distinct term), expanded with synonyms, or prefixes when unknown. */
export function parseQuery(text: string, vocabulary: ReadonlyMap<string, unknown>): Query {
  const concepts: Concept[] = [];
  const seen = new Set<string>();
  let verb: string | undefined;
  for (const term of terms(text, false)) {
    if (seen.has(term.stem)) continue;
    seen.add(term.stem);
    verb ??= verbGroup(term.stem);
    const stems = new Map([[term.stem, 1]]);
    for (const s of synonyms(term.stem)) if (!stems.has(s)) stems.set(s, SYNONYM);
    if (term.stem.length >= 3 && ![...stems.keys()].some((s) => vocabulary.has(s))) {
      addPrefixed(stems, term.stem, vocabulary);
    }
    concepts.push({ label: term.label, stems });
  }
  return verb === undefined ? { concepts } : { concepts, verb };
}

function addPrefixed(stems: Map<string, number>, prefix: string, vocabulary: ReadonlyMap<string, unknown>) {
  let added = 0;
  for (const s of vocabulary.keys()) {
    if (added >= MAX_PREFIXED) return;
    if (s.length > prefix.length && s.startsWith(prefix)) {
      stems.set(s, PREFIX);
      added++;
    }
  }
}
