/** Words and names → search terms: lowercase, split at non-alphanumerics and camelCase/snake_case boundaries. */

const STOPWORDS = new Set(
  (
    "a an and are as at be by can do for from has have how i if in into is it its me my of on or our so " +
    "than that the their them then there these this those to use used using via was we what when which " +
    "will with you your"
  ).split(" "),
);

/** Splits `listIssues`, `get-sum`, `HTTPServer2` and prose into lowercase words (no stopword removal). */
export function words(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** Search terms of `text`: its words without stopwords and one-letter words (kept if nothing else is left). */
export function tokenize(text: string): string[] {
  const all = words(text);
  const useful = all.filter((word) => word.length > 1 && !STOPWORDS.has(word));
  return useful.length > 0 ? useful : all;
}

/** A light English stemmer so that `issues`/`issue` and `creating`/`create` meet. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ss|ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}
