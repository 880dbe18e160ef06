import { isDigitAt, scan, standsAlone } from "../boundary";
import type { PiiMatch } from "../types";

/** Where an international number may start: `+` and a country code's first digit, alone. */
const PLUS = /(?<![0-9A-Za-z_+])\+[1-9]/g;

/** Digits (country code included, a `(0)` trunk prefix not) by country code; others: 8–15. */
const DIGITS_BY_CODE: Record<string, readonly [number, number]> = {
  "1": [11, 11],
  "7": [11, 11],
  "27": [11, 11],
  "31": [11, 11],
  "32": [10, 11],
  "33": [11, 11],
  "34": [11, 11],
  "39": [10, 13],
  "41": [11, 11],
  "44": [12, 12],
  "45": [10, 10],
  "46": [9, 12],
  "47": [10, 10],
  "48": [11, 11],
  "49": [10, 15],
  "55": [12, 13],
  "61": [11, 11],
  "65": [10, 10],
  "81": [11, 12],
  "86": [12, 13],
  "91": [12, 12],
};
const DEFAULT_DIGITS = [8, 15] as const;
const MAX_DIGITS = 15;
const MAX_GROUP = 15;

/** `+<cc> …` with single spaces, dashes or dots between groups and optional `(…)` groups. */
export function findIntlPhones(text: string, out: PiiMatch[]): void {
  if (!text.includes("+")) return;
  scan(PLUS, text, (m) => parseFrom(text, m.index), out);
}

function parseFrom(text: string, plus: number): PiiMatch | null {
  const ends: { end: number; digits: number }[] = [];
  let i = plus + 1;
  let digits = 0;
  let first = "";
  for (;;) {
    const paren = text.charCodeAt(i) === 40 && ends.length > 0;
    if (paren) i++;
    const runStart = i;
    while (isDigitAt(text, i) && i - runStart <= MAX_GROUP) i++;
    const run = i - runStart;
    if (run === 0 || (paren && (run > 5 || text.charCodeAt(i) !== 41))) break;
    const trunk = paren && text.slice(runStart, i) === "0" && ends.length === 1;
    if (paren) i++;
    if (ends.length === 0) first = text.slice(runStart, i);
    if (!trunk) digits += run;
    if (digits > MAX_DIGITS) break;
    ends.push({ end: i, digits });
    const c = text.charAt(i);
    if ((c === " " || c === "-" || c === ".") && (isDigitAt(text, i + 1) || text.charAt(i + 1) === "(")) i++;
    else if (!(c === "(" || (paren && isDigitAt(text, i)))) break;
  }
  const [min, max] = digitRange(first);
  for (let k = ends.length - 1; k >= 0; k--) {
    const { end, digits: count } = ends[k]!;
    if (count > max) continue;
    if (count < min) return null;
    const value = text.slice(plus, end);
    if (!standsAlone(text, plus, end, "-./", value.includes(" "))) return null;
    return { kind: "PHONE", start: plus, end, value };
  }
  return null;
}

/** Country codes are prefix-free, so the first of 1, 2 or 3 leading digits found in the table wins. */
function digitRange(first: string): readonly [number, number] {
  for (let n = 1; n <= 3; n++) {
    const range = DIGITS_BY_CODE[first.slice(0, n)];
    if (range) return range;
  }
  return DEFAULT_DIGITS;
}
