import type { StoredSkill } from "./objects";

const MAX_ENTRIES = 200;
const MAX_CODE_CHARS = 20_000_000;

/**
 * Per-isolate state: versions read from R2 in this isolate, least recently used first out. Keys are
 * `<team>/<name>/<version>` and a version never changes, so an entry is never stale.
 */
const entries = new Map<string, StoredSkill>();
let codeChars = 0;

export const cacheKey = (team: string, name: string, version: number) => `${team}/${name}/${version}`;

export function cached(key: string): StoredSkill | undefined {
  const record = entries.get(key);
  if (record) {
    entries.delete(key);
    entries.set(key, record);
  }
  return record;
}

export function remember(key: string, record: StoredSkill): void {
  forget(key);
  entries.set(key, record);
  codeChars += record.code.length;
  for (const [oldest, old] of entries) {
    if (entries.size <= MAX_ENTRIES && codeChars <= MAX_CODE_CHARS) break;
    entries.delete(oldest);
    codeChars -= old.code.length;
  }
}

export function forget(key: string): void {
  const record = entries.get(key);
  if (!record) return;
  entries.delete(key);
  codeChars -= record.code.length;
}
