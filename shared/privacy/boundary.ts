import type { PiiMatch } from "./types";

/**
 * Boundary checks shared by the detectors: a match must not be a piece of a longer word, number or
 * identifier. Regexes prune with a cheap ASCII look-behind; the code checks below have the last word.
 */

/** Look-behind for numeric detectors: no word character, `+`, or `x-`, `x.`, `x/` right before. */
export const NUMERIC_LEFT = String.raw`(?<![0-9A-Za-z_+])(?<![0-9A-Za-z][\-./])`;

const NON_ASCII_WORD = /[\p{L}\p{N}]/u;

export function isDigitAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 48 && code <= 57;
}

function isAlnumCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

export function isAlnumAt(text: string, index: number): boolean {
  return isAlnumCode(text.charCodeAt(index));
}

/** A character that continues a word: ASCII letter, digit or `_`, or a non-ASCII letter or digit. */
export function isWordAt(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return false;
  const code = text.charCodeAt(index);
  if (code < 128) return isAlnumCode(code) || code === 95;
  return NON_ASCII_WORD.test(text.charAt(index));
}

/**
 * True when `text[start, end)` stands alone: no word character touches it, no `+` before it, and it
 * does not continue through a joiner (one of `joiners` next to a letter or digit, as in `ORD-…` or
 * `1.2.3.4.5`), nor, when the match is itself spaced (`4111 1111 …`), through a space next to a digit.
 */
export function standsAlone(
  text: string,
  start: number,
  end: number,
  joiners: string,
  spaced = false,
): boolean {
  return sideClear(text, start - 1, -1, joiners, spaced) && sideClear(text, end, 1, joiners, spaced);
}

function sideClear(text: string, at: number, step: number, joiners: string, spaced: boolean): boolean {
  if (at < 0 || at >= text.length) return true;
  if (isWordAt(text, at)) return false;
  const c = text.charAt(at);
  if (step < 0 && c === "+") return false;
  if (joiners.includes(c)) return !isAlnumAt(text, at + step);
  if (spaced && c === " ") return !isDigitAt(text, at + step);
  return true;
}

/**
 * Runs a global regex over `text`; `accept` turns a raw match into a PII match or null. After a
 * rejection the search resumes one character later (the look-behinds keep that linear), after an
 * acceptance at the accepted end.
 */
export function scan(
  re: RegExp,
  text: string,
  accept: (m: RegExpExecArray) => PiiMatch | null,
  out: PiiMatch[],
): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const found = accept(m);
    if (found) {
      out.push(found);
      re.lastIndex = found.end;
    } else {
      re.lastIndex = m.index + 1;
    }
  }
}
