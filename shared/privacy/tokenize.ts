import type { PiiItem } from "../contract/session";
import { detectPii } from "./detect";
import { normalizePii } from "./normalize";
import type { PiiMatch } from "./types";
import { forEachString, mapStrings } from "./walk";

/** Distinct values one collection hands to the vault at most. */
export const MAX_PII_ITEMS = 10_000;

const idOf = (item: PiiItem): string => `${item.kind}\u0000${item.key}`;
const itemOf = (m: PiiMatch): PiiItem => ({
  kind: m.kind,
  key: normalizePii(m.kind, m.value),
  value: m.value,
});

/**
 * The distinct personal values (by kind and normalized key) in the strings and keys of `values`, at
 * any depth, in order of first sight; at most `limit`. JSON numbers are not text and not scanned.
 */
export function collectPii(values: readonly unknown[], limit = MAX_PII_ITEMS): PiiItem[] {
  return gather(values, limit).items;
}

/** A copy of `value` with every detected value (in strings and keys, at any depth) replaced by its token. */
export function replacePii<T>(value: T, tokenOf: (item: PiiItem) => string): T {
  return replaceWith(value, tokenOf, detectPii);
}

/**
 * Collect, one `assign` call (items → their tokens, in order), replace. A value without a token
 * (past the item limit, or missing from `assign`'s answer) is redacted as `[KIND]`: never let through.
 * Detection runs once per string: the replace pass reuses what the collect pass found.
 */
export async function tokenizeValues(
  values: readonly unknown[],
  assign: (items: PiiItem[]) => Promise<string[]>,
): Promise<unknown[]> {
  const { items, found, complete } = gather(values, MAX_PII_ITEMS);
  if (items.length === 0 && complete) return [...values];
  const tokens = items.length > 0 ? await assign(items) : [];
  const tokenById = new Map<string, string>();
  items.forEach((item, i) => {
    const token = tokens[i];
    if (typeof token === "string") tokenById.set(idOf(item), token);
  });
  const tokenOf = (item: PiiItem): string => tokenById.get(idOf(item)) ?? `[${item.kind}]`;
  const detect = (text: string): PiiMatch[] => found.get(text) ?? (complete ? [] : detectPii(text));
  return values.map((value) => replaceWith(value, tokenOf, detect));
}

interface Gathered {
  items: PiiItem[];
  /** the matches of each string that had some */
  found: Map<string, PiiMatch[]>;
  /** every string was scanned (the limit was not reached) */
  complete: boolean;
}

function gather(values: readonly unknown[], limit: number): Gathered {
  const seen = new Set<string>();
  const gathered: Gathered = { items: [], found: new Map(), complete: true };
  if (limit <= 0) return { ...gathered, complete: false };
  forEachString(values, (text) => {
    if (gathered.found.has(text)) return true;
    const matches = detectPii(text);
    if (matches.length === 0) return true;
    gathered.found.set(text, matches);
    for (const match of matches) {
      const item = itemOf(match);
      const id = idOf(item);
      if (seen.has(id)) continue;
      seen.add(id);
      if (gathered.items.push(item) >= limit) {
        gathered.complete = false;
        return false;
      }
    }
    return true;
  });
  return gathered;
}

function replaceWith<T>(
  value: T,
  tokenOf: (item: PiiItem) => string,
  detect: (text: string) => PiiMatch[],
): T {
  return mapStrings(value, (text) => {
    const matches = detect(text);
    if (matches.length === 0) return text;
    let out = "";
    let at = 0;
    for (const match of matches) {
      out += text.slice(at, match.start) + tokenOf(itemOf(match));
      at = match.end;
    }
    return out + text.slice(at);
  });
}
