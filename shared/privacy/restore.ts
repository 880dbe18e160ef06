import type { PiiKind } from "../contract/session";
import { forEachString, mapStrings } from "./walk";

/** A token as the vault hands it out: `[EMAIL_1]`. Numbers start at 1. */
const TOKEN = /\[(?:EMAIL|PHONE|CARD|SSN|IBAN|IP)_[1-9][0-9]{0,8}\]/g;

export function piiToken(kind: PiiKind, n: number): string {
  return `[${kind}_${n}]`;
}

/** The distinct tokens in any string or key of `value`, at any depth, in order of first sight. */
export function findTokens(value: unknown): string[] {
  const found = new Set<string>();
  forEachString([value], (text) => {
    if (text.includes("[")) for (const m of text.matchAll(TOKEN)) found.add(m[0]);
    return true;
  });
  return [...found];
}

/**
 * A copy of `value` with each token found in `lookup` (token → real value) put back, alone or
 * inside a longer string, in values and keys at any depth. Unknown tokens stay as they are.
 */
export function restoreTokens<T>(value: T, lookup: ReadonlyMap<string, string>): T {
  return mapStrings(value, (text) =>
    text.includes("[") ? text.replace(TOKEN, (token) => lookup.get(token) ?? token) : text,
  );
}
