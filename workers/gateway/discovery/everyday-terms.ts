import { EVERYDAY } from "./everyday";
import { canonical } from "./synonyms";
import { stem, words } from "./tokenize";

const stemOf = (word: string) => canonical(stem(word));

/** A said word's stem, or two stems joined by a space → the stems tools use for it. */
const meaning = new Map<string, Set<string>>();
for (const [, say, means] of EVERYDAY) {
  const targets = means.split(" ").map(stemOf);
  for (const said of say.split(", ")) {
    const key = words(said).map(stemOf).join(" ");
    const set = meaning.get(key) ?? new Set<string>();
    for (const target of targets) if (target !== key) set.add(target);
    meaning.set(key, set);
  }
}

/** The tool words for an everyday word's stem (`commute` → directions, route, travel). */
export function everydayMeaning(wordStem: string): Iterable<string> {
  return meaning.get(wordStem) ?? [];
}

/**
 * The tool words for two-word everyday phrases in `text` (`opening hours` → details, place, hours),
 * each with the index of the phrase's first word among `words(text)`.
 */
export function everydayPhrases(text: string): { first: number; second: number; means: Set<string> }[] {
  const stems = words(text).map(stemOf);
  const found: { first: number; second: number; means: Set<string> }[] = [];
  for (let i = 0; i + 1 < stems.length; i++) {
    const means = meaning.get(`${stems[i]} ${stems[i + 1]}`);
    if (means) found.push({ first: i, second: i + 1, means });
  }
  return found;
}
