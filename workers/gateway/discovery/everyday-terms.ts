import { EVERYDAY } from "./everyday";
import { termStem } from "./terms";
import { words } from "./words";

/** A said word's stem, or two stems joined by a space → the stems tools use for it. */
const meaning = new Map<string, Set<string>>();
for (const [, say, means] of EVERYDAY) {
  const targets = means.split(" ").map(termStem);
  for (const said of say.split(", ")) {
    const key = words(said).map(termStem).join(" ");
    const set = meaning.get(key) ?? new Set<string>();
    for (const target of targets) if (target !== key) set.add(target);
    meaning.set(key, set);
  }
}

/** The tool words for an everyday word's stem (`commute` → directions, route, travel). */
export function everydayMeaning(wordStem: string): Iterable<string> {
  return meaning.get(wordStem) ?? [];
}

/** A two-word everyday phrase found in a text: its words, the words after it, the tool words it means. */
export interface EverydayPhrase {
  said: [string, string];
  after: string[];
  means: Set<string>;
}

/**
 * The tool words for the two-word everyday phrases in `text` (`opening hours` → details, place, hours),
 * in either order ("the build is red" / "a red build", "count lines" / "line count").
 */
export function everydayPhrases(text: string): EverydayPhrase[] {
  const all = words(text);
  const stems = all.map(termStem);
  const found: EverydayPhrase[] = [];
  for (let i = 0; i + 1 < stems.length; i++) {
    const means = meaning.get(`${stems[i]} ${stems[i + 1]}`) ?? meaning.get(`${stems[i + 1]} ${stems[i]}`);
    if (means) found.push({ said: [all[i]!, all[i + 1]!], after: all.slice(i + 2), means });
  }
  return found;
}
