/** Abbreviations a sentence does not end at (lowercase, without their final period). */
const ABBREVIATIONS = new Set(["etc", "vs", "approx", "cf", "incl", "esp", "al", "fig", "resp"]);

/** A sentence end: `.`, `!` or `?` followed by whitespace or the end of the text. */
const END = /[.!?](?=\s|$)/g;

/**
 * The first sentence of `text`'s first line, cut to `maxChars` with `…`. A period ends a sentence
 * unless it closes an abbreviation (`etc.`, `vs.`, `approx.`, …), dotted letters (`e.g.`, `i.e.`,
 * `U.S.`) or a single capital initial (`J.`); decimals (`1.5`) have no space after their period.
 */
export function firstSentence(text: string, maxChars: number): string {
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  let sentence = line;
  for (const match of line.matchAll(END)) {
    if (match[0] === "." && !endsSentence(line.slice(0, match.index))) continue;
    sentence = line.slice(0, match.index + 1);
    break;
  }
  return sentence.length > maxChars ? `${sentence.slice(0, maxChars - 1)}…` : sentence;
}

/** Whether the period after `before` ends a sentence, judged by the word it closes. */
function endsSentence(before: string): boolean {
  const word = /[^\s("'[]*$/.exec(before)?.[0] ?? "";
  if (/^\p{Lu}$/u.test(word)) return false;
  if (/^(\p{L}\.)+\p{L}$/u.test(word)) return false;
  return !ABBREVIATIONS.has(word.toLowerCase());
}
