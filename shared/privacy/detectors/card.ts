import { NUMERIC_LEFT, scan, standsAlone } from "../boundary";
import type { PiiMatch } from "../types";

/** 13–19 digits with optional single spaces or dashes between them (each step consumes a digit). */
const CARD = new RegExp(`${NUMERIC_LEFT}(?<![0-9] )\\d(?:[ \\-]?\\d){12,18}`, "g");

export function findCards(text: string, out: PiiMatch[]): void {
  scan(CARD, text, (m) => accept(text, m.index, m[0]), out);
}

/**
 * The longest prefix of whole groups that is a card: compact, or grouped with one separator as
 * cards are printed (4-4-4-4, 4-4-4-4-3, 4-4-4-1, Amex 4-6-5, Diners 4-6-4).
 */
function accept(text: string, start: number, run: string): PiiMatch | null {
  // Issuers start with 2–6 (this drops epoch milliseconds and most ids at once).
  const first = run.charCodeAt(0);
  if (first < 50 || first > 54) return null;
  const groups = run.split(/[ -]/);
  const separators = run.replace(/\d/g, "");
  const oneSeparator =
    separators.length === 0 || separators === separators.charAt(0).repeat(separators.length);
  for (let k = oneSeparator ? groups.length : 1; k >= 1; k--) {
    const parts = groups.slice(0, k);
    const digits = parts.join("");
    if (digits.length < 13 || digits.length > 19 || !printedShape(parts)) continue;
    const end = start + digits.length + k - 1;
    if (!standsAlone(text, start, end, "-./", k > 1 && separators.charAt(0) === " ")) return null;
    if (!issuerPlausible(digits) || !luhn(digits)) return null;
    return { kind: "CARD", start, end, value: text.slice(start, end) };
  }
  return null;
}

function printedShape(parts: string[]): boolean {
  if (parts.length === 1) return true;
  const lengths = parts.map((p) => p.length).join(",");
  if (lengths === "4,6,5" || lengths === "4,6,4") return true;
  const last = parts[parts.length - 1]!.length;
  return last <= 4 && parts.slice(0, -1).every((p) => p.length === 4);
}

/** Issuer prefixes (IIN) and the lengths each issues. */
function issuerPlausible(d: string): boolean {
  const n = d.length;
  const p2 = Number(d.slice(0, 2));
  const p3 = Number(d.slice(0, 3));
  const p4 = Number(d.slice(0, 4));
  if (d.startsWith("4")) return n === 13 || n === 16 || n === 19; // Visa
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n === 16; // Mastercard
  if (p2 === 34 || p2 === 37) return n === 15; // Amex
  if (p4 >= 2200 && p4 <= 2204) return n >= 16; // Mir
  if ((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38 || p2 === 39) return n >= 14; // Diners
  if (p4 >= 3528 && p4 <= 3589) return n >= 16; // JCB
  if (p2 === 50 || (p2 >= 56 && p2 <= 58)) return n >= 13; // Maestro
  if (d.startsWith("6")) return n >= 16 || p2 === 67; // Discover, UnionPay, Maestro, RuPay
  return false;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let v = digits.charCodeAt(i) - 48;
    if (double) {
      v *= 2;
      if (v > 9) v -= 9;
    }
    sum += v;
  }
  return sum % 10 === 0;
}
