/** Words and names → search terms: lowercase, split at non-alphanumerics and camelCase/snake_case boundaries. */

/** A question or pointing word and `'s` (`what's`, `there's`): two stopwords, as words() writes them. */
export const CONTRACTED = new Set(["whats", "thats", "heres", "theres", "whos", "hows", "lets", "wheres"]);

export const STOPWORDS = new Set(
  (
    "a about above already also am among an and any are as at be been being below but by can could " +
    "did do does doing everything for from had has have he her his how i if in inside into is it its " +
    "just me my of on onto or our please she should so some still than that the their them then " +
    "there these they this those to too toward towards under upon use used using very via want was " +
    "we were what when where which while who whom whose why will with within would yet you your"
  )
    .split(" ")
    .concat([...CONTRACTED]),
);

/** `don't`, `isn't`, `can't`, `won't`: the verb without its `not`. */
const NOT = /\b(\p{L}+?)n['’]t\b/gu;

/**
 * Splits `listIssues`, `get-sum`, `HTTPServer2` and prose into lowercase words (no stopword removal);
 * with `splitCase` false, `GitHub` and `arXiv` stay one word each (prose, not identifiers). An
 * apostrophe's `s` stays on its word (`what's` → whats, `database's` → databases, stemmed as plural);
 * `n't` goes (`isn't` → is) and so do `'d`, `'ll`, `'re`, `'ve` and `'m`.
 */
export function words(text: string, splitCase = true): string[] {
  const split = splitCase
    ? text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2").replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
    : text;
  return split
    .replace(NOT, (_, word: string) => (word === "ca" ? "can" : word === "wo" ? "will" : word))
    .replace(/(\p{L})['’](?:d|ll|re|ve|m)\b/gu, "$1")
    .replace(/(\p{L})['’]s\b/gu, "$1s")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** Search terms of `text`: its words without stopwords and one-letter words (kept if nothing else is left). */
export function searchTerms(text: string): string[] {
  const all = words(text);
  const useful = all.filter((word) => word.length > 1 && !STOPWORDS.has(word));
  return useful.length > 0 ? useful : all;
}

/** Words whose regular stem would meet an unrelated word (`settings` → `set`, `production` → `product`). */
const KEEP = new Map<string, string>([
  ["setting", "setting"],
  ["settings", "setting"],
  ["news", "news"],
  ...["production", "projection", "direction", "objection"].flatMap((word): [string, string][] => [
    [word, word],
    [`${word}s`, word],
  ]),
]);

/**
 * A noun made of a verb ending in `ct`/`pt` (`transcription`, `connections`, `exception`): the verb;
 * not a short word, whose `-ction` is no verb's (`action`, `function`, `section`).
 */
const ACTION_NOUN = /^(\p{L}{4,}[cp]t)ions?$/u;
/** Being one, as a noun (`membership`, `ownership`, `sponsorships`): the one (member, owner, sponsor). */
const STATE_NOUN = /^(\p{L}{4,})ships?$/u;

/**
 * A light English stemmer so that `issues`/`issue`, `creating`/`create`, `stopped`/`stop`,
 * `transcription`/`transcript` and `membership`/`member` meet: a `-ction`/`-ption` noun's verb, a
 * `-ship` noun's word, else plural `-s`/`-es`/`-ies`, then `-ing`/`-ed` (undoubling a final
 * consonant), then a final `-e`.
 */
export function stem(word: string): string {
  const kept = KEEP.get(word);
  if (kept !== undefined) return kept;
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  const noun = ACTION_NOUN.exec(w);
  if (noun) return noun[1]!;
  const state = STATE_NOUN.exec(w);
  if (state) return stem(state[1]!);
  if (w.length > 4 && /(ss|ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const suffix = w.length > 5 && w.endsWith("ing") ? 3 : w.length > 4 && w.endsWith("ed") ? 2 : 0;
  if (suffix > 0 && /[aeiouy]/.test(w.slice(0, -suffix))) {
    w = w.slice(0, -suffix);
    if (w.length > 3 && /([^aeioulsz])\1$/.test(w)) w = w.slice(0, -1);
  }
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}
