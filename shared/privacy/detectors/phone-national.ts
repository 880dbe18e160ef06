import { NUMERIC_LEFT, scan, standsAlone } from "../boundary";
import type { PiiMatch } from "../types";

/**
 * National formats, each a fixed shape (bounded, no nested quantifiers). A bare run of digits
 * (`4155550123`) is never a phone here: too many ids look like that.
 */
const SHAPES: readonly string[] = [
  // US/NANP: (415) 555-0123, 1 (415) 555-0123
  String.raw`(?:1[ .\-])?\([2-9]\d{2}\) ?[2-9]\d{2}[ .\-]\d{4}`,
  // US/NANP: 415-555-0123, 415.555.0123, 1-800-555-0199 (one separator throughout)
  String.raw`(?:1[.\-])?[2-9]\d{2}([.\-])[2-9]\d{2}\1\d{4}`,
  // US/NANP: 415 555 0123, 415 555-0123
  String.raw`[2-9]\d{2} [2-9]\d{2}[ \-]\d{4}`,
  // UK: 020 7946 0958, 0161 496 0000, 07700 900 123
  String.raw`0[1-9]\d \d{4} \d{4}`,
  String.raw`0[1-9]\d{2} \d{3} \d{4}`,
  String.raw`0[1-9]\d{3} \d{3} \d{3}`,
  // DE/UK style area code + subscriber: 030 1234567, 0171-1234567, 089/123456, 07700 900123
  String.raw`0[1-9]\d{1,4}[ /\-]\d{5,8}`,
  // FR: 06 12 34 56 78, 01.23.45.67.89
  String.raw`0[1-9]([ .\-])\d{2}\1\d{2}\1\d{2}\1\d{2}`,
];

/** One pass: the shapes as alternatives (their backreferences renumbered in order). */
const NATIONAL = new RegExp(`${NUMERIC_LEFT}(?:${renumber(SHAPES).join("|")})`, "g");

function renumber(shapes: readonly string[]): string[] {
  let groups = 0;
  return shapes.map((shape) => {
    const base = groups;
    groups += (shape.match(/(?<!\\)\((?!\?)/g) ?? []).length;
    return shape.replace(/\\([1-9])/g, (_, n: string) => `\\${base + Number(n)}`);
  });
}

/** Digits a national number may have (area + subscriber). */
const MIN_DIGITS = 9;
const MAX_DIGITS = 12;

export function findNationalPhones(text: string, out: PiiMatch[]): void {
  scan(NATIONAL, text, (m) => accept(text, m.index, m[0]), out);
}

function accept(text: string, start: number, value: string): PiiMatch | null {
  let digits = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 48 && code <= 57) digits++;
  }
  if (digits < MIN_DIGITS || digits > MAX_DIGITS) return null;
  const end = start + value.length;
  if (!standsAlone(text, start, end, "-./", value.includes(" "))) return null;
  return { kind: "PHONE", start, end, value };
}
