import { phrase } from "./synonyms";
import { STOPWORDS, stem, words } from "./tokenize";

/** One search term: its stem, and the words of the text it came from. */
export interface Term {
  stem: string;
  label: string;
}

/**
 * The terms of `text`: stems of its words without stopwords and one-letter words (kept if nothing
 * else is left), with known two-word names joined (`pull requests` → one term `pullrequest`).
 * `keepParts` also keeps a joined name's words as terms of their own (for tools, not queries).
 */
export function terms(text: string, keepParts: boolean): Term[] {
  const all = words(text);
  const useful = (w: string) => w.length > 1 && !STOPWORDS.has(w);
  const keep = all.some(useful) ? useful : () => true;
  const stems = all.map(stem);
  const out: Term[] = [];
  for (let i = 0; i < all.length; i++) {
    const joined = i + 1 < all.length ? phrase(stems[i]!, stems[i + 1]!) : undefined;
    if (joined !== undefined) {
      out.push({ stem: joined, label: `${all[i]} ${all[i + 1]}` });
      if (!keepParts) {
        i++;
        continue;
      }
    }
    if (keep(all[i]!)) out.push({ stem: stems[i]!, label: all[i]! });
  }
  return out;
}

/** The stems of `text`'s terms, joined names and their words alike. */
export function stemsOf(text: string | undefined): string[] {
  return text ? terms(text, true).map((term) => term.stem) : [];
}
