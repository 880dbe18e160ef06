import { EVERYDAY } from "./everyday";
import { PRODUCT_EVERYDAY } from "./everyday-products";
import { termStem } from "./terms";
import { words } from "./words";

/** A said word's stem, or two stems joined by a space → the stems tools use for it. */
type Meanings = Map<string, Set<string>>;

function addLine(meaning: Meanings, say: string, means: string): void {
  const targets = means.split(" ").map(termStem);
  for (const said of say.split(", ")) {
    const key = words(said).map(termStem).join(" ");
    const set = meaning.get(key) ?? new Set<string>();
    for (const target of targets) if (target !== key) set.add(target);
    meaning.set(key, set);
  }
}

const general: Meanings = new Map();
for (const [, say, means] of EVERYDAY) addLine(general, say, means);
/** a product's stem → its own everyday meanings */
const byProduct = new Map<string, Meanings>();
for (const [product, say, means] of PRODUCT_EVERYDAY) {
  const key = termStem(product);
  const meaning = byProduct.get(key) ?? new Map();
  addLine(meaning, say, means);
  byProduct.set(key, meaning);
}

/** The everyday vocabulary of a catalog: the general one, and each product's its tools name. */
export interface Everyday {
  /** The tool words for an everyday word's stem (`commute` → directions, route, travel). */
  meaning(wordStem: string): Iterable<string>;
  /** The two-word everyday phrases in `text`. */
  phrases(text: string): EverydayPhrase[];
}

/** The everyday vocabulary for a catalog whose stems are `vocabulary` (a product's lines count when it has the product's name). */
export function everydayOf(vocabulary: ReadonlyMap<string, unknown>): Everyday {
  const all = [general, ...[...byProduct].flatMap(([product, m]) => (vocabulary.has(product) ? [m] : []))];
  const lookup = (key: string): Set<string> | undefined => {
    let found: Set<string> | undefined;
    for (const meaning of all) {
      const set = meaning.get(key);
      if (set) found = found ? new Set([...found, ...set]) : set;
    }
    return found;
  };
  return {
    meaning: (wordStem) => lookup(wordStem) ?? [],
    phrases: (text) => everydayPhrases(text, lookup),
  };
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
function everydayPhrases(text: string, lookup: (key: string) => Set<string> | undefined): EverydayPhrase[] {
  const all = words(text);
  const stems = all.map(termStem);
  const found: EverydayPhrase[] = [];
  for (let i = 0; i + 1 < stems.length; i++) {
    const means = lookup(`${stems[i]} ${stems[i + 1]}`) ?? lookup(`${stems[i + 1]} ${stems[i]}`);
    if (means) found.push({ said: [all[i]!, all[i + 1]!], after: all.slice(i + 2), means });
  }
  return found;
}
