import { canonical, phrase } from "./synonyms";
import { STOPWORDS, stem, words } from "./words";

/** One search term: its stem, and the words of the text it came from. */
export interface Term {
  stem: string;
  label: string;
}

/**
 * The terms of `text`: stems of its words without stopwords and one-letter words (kept if nothing
 * else is left), with known two-word names joined (`pull requests` → one term `pullrequest`, so that
 * a pull request is not a request) and abbreviations written out (`repo` → `repository`).
 * Identifiers split at case changes, prose with `splitCase` false.
 */
export function terms(text: string, splitCase = true): Term[] {
  const all = words(text, splitCase);
  const out: Term[] = [];
  eachTerm(
    all,
    (s, first, last) => {
      out.push({ stem: s, label: all.slice(first, last + 1).join(" ") });
    },
    true,
  );
  return out;
}

/** The stems of `text`'s terms (for tools: no labels kept). */
export function stemsOf(text: string | undefined, splitCase = true): string[] {
  const out: string[] = [];
  if (text) eachTerm(words(text, splitCase), (s) => out.push(s));
  return out;
}

/** Words between a verb and its particle in a split phrasal verb (`roll deployment/checkout back`). */
const SPLIT_GAP = 3;
const PARTICLES = new Set(["back", "off", "out", "up", "down", "over"]);

/**
 * `splitVerbs`: a phrasal verb split by its object (`roll the deploy back`) is the phrase too. Read in
 * queries, which talk that way, not in tool text, where "sets a limit of up to 100" would be setup.
 */
function eachTerm(
  all: string[],
  found: (stem: string, first: number, last: number) => void,
  splitVerbs = false,
): void {
  const useful = (w: string) => w.length > 1 && !STOPWORDS.has(w);
  const keep = all.some(useful) ? useful : () => true;
  /** particles already taken by a split phrasal verb before them */
  const taken = new Set<number>();
  let next = all.length > 0 ? termStem(all[0]!) : "";
  for (let i = 0; i < all.length; i++) {
    const current = next;
    next = i + 1 < all.length ? termStem(all[i + 1]!) : "";
    const joined = next === "" ? undefined : phrase(current, next);
    if (joined !== undefined) {
      found(joined, i, i + 1);
      i++;
      next = i + 1 < all.length ? termStem(all[i + 1]!) : "";
      continue;
    }
    if (taken.has(i)) continue;
    const split = splitVerbs ? splitParticle(all, i, current) : undefined;
    if (split !== undefined) {
      taken.add(split.at);
      found(split.joined, i, i);
    } else if (keep(all[i]!)) found(current, i, i);
  }
}

/** `shut it down`, `roll the deploy back`: the verb's phrase with a particle a few words on. */
function splitParticle(all: string[], i: number, verb: string): { joined: string; at: number } | undefined {
  for (let j = i + 2; j < all.length && j <= i + 1 + SPLIT_GAP; j++) {
    const word = all[j]!;
    // `up to 5000` is how far, not a particle.
    if (!PARTICLES.has(word) || (word === "up" && all[j + 1] === "to")) continue;
    const joined = phrase(verb, termStem(word));
    return joined === undefined ? undefined : { joined, at: j };
  }
  return undefined;
}

/** Per-isolate state: stems of words seen (at most MEMO_SIZE, then afresh). */
const memo = new Map<string, string>();
const MEMO_SIZE = 50_000;

/** A word's stem as the vocabulary writes it, memoized: tools repeat their words a lot. */
export function termStem(word: string): string {
  let known = memo.get(word);
  if (known === undefined) {
    if (memo.size >= MEMO_SIZE) memo.clear();
    known = canonical(stem(word));
    memo.set(word, known);
  }
  return known;
}
