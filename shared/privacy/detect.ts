import type { PiiKind } from "../contract/session";
import { findCards } from "./detectors/card";
import { findEmails } from "./detectors/email";
import { findIbans } from "./detectors/iban";
import { findIPv4, findIPv6 } from "./detectors/ip";
import { findIntlPhones } from "./detectors/phone-intl";
import { findNationalPhones } from "./detectors/phone-national";
import { findSsns } from "./detectors/ssn";
import type { Detector, PiiMatch } from "./types";

export type { PiiMatch } from "./types";

/** Detectors that need digits, by the fewest digits a match of theirs holds. */
const NUMERIC: readonly (readonly [Detector, number])[] = [
  [findIbans, 2],
  [findIPv4, 4],
  [findIntlPhones, 8],
  [findNationalPhones, 9],
  [findSsns, 9],
  [findCards, 13],
];

/** On a tie in length, the more specific kind wins. */
const RANK: Record<PiiKind, number> = { EMAIL: 6, IBAN: 5, CARD: 4, SSN: 3, IP: 2, PHONE: 1 };

/**
 * Personal data in `text`: sorted by position, non-overlapping (of overlapping candidates the longer,
 * then the more specific, wins). Every pattern is linear in the text's length.
 */
export function detectPii(text: string): PiiMatch[] {
  const found: PiiMatch[] = [];
  findEmails(text, found);
  findIPv6(text, found);
  const digits = countDigits(text, 13);
  for (const [detect, least] of NUMERIC) if (digits >= least) detect(text, found);
  if (found.length < 2) return found;
  found.sort((a, b) => a.start - b.start || better(a, b));
  const kept: PiiMatch[] = [];
  for (const match of found) {
    const last = kept[kept.length - 1];
    if (last === undefined || match.start >= last.end) kept.push(match);
    else if (better(match, last) < 0) kept[kept.length - 1] = match;
  }
  return kept;
}

/** The digits in `text`, counted up to `enough`. */
function countDigits(text: string, enough: number): number {
  let count = 0;
  for (let i = 0; i < text.length && count < enough; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) count++;
  }
  return count;
}

/** Negative when `a` is the better of two overlapping matches. */
function better(a: PiiMatch, b: PiiMatch): number {
  return b.end - b.start - (a.end - a.start) || RANK[b.kind] - RANK[a.kind];
}
