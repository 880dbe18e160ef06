import { PII_KINDS, PiiItem, type PiiKind } from "../../shared/contract/session";
import { addMeta, readMeta } from "./schema";

/** Values past this many get a bare `[KIND]`: not numbered, not restorable. */
export const VAULT_MAX_ENTRIES = 50_000;
/** `restore` answers null for tokens past this many. */
export const RESTORE_MAX_TOKENS = 10_000;

const TOKEN = new RegExp(`^\\[(${PII_KINDS.join("|")})_([1-9][0-9]{0,8})\\]$`);

/**
 * One token per (kind, key) for the session's life, numbered per kind from 1 in order of first
 * sight. Items are checked first (a bad one throws TypeError); numbers are handed out in one
 * transaction.
 */
export function tokenize(storage: DurableObjectStorage, input: PiiItem[]): string[] {
  const items = PiiItem.array().parse(input);
  const sql = storage.sql;
  return storage.transactionSync(() => items.map((item) => tokenFor(sql, item)));
}

export function restore(sql: SqlStorage, tokens: string[]): Array<string | null> {
  return tokens.map((token, i) => {
    if (i >= RESTORE_MAX_TOKENS || typeof token !== "string") return null;
    const match = TOKEN.exec(token);
    if (!match) return null;
    const row = sql
      .exec<{ value: string }>("SELECT value FROM vault WHERE kind = ? AND n = ?", match[1], Number(match[2]))
      .toArray()[0];
    return row?.value ?? null;
  });
}

function tokenFor(sql: SqlStorage, { kind, key, value }: PiiItem): string {
  const known = sql
    .exec<{ n: number }>("SELECT n FROM vault WHERE kind = ? AND key = ?", kind, key)
    .toArray()[0];
  if (known) return token(kind, known.n);
  if (readMeta(sql, "vault_entries") >= VAULT_MAX_ENTRIES) return `[${kind}]`;
  const n = sql
    .exec<{ n: number }>("SELECT COALESCE(MAX(n), 0) + 1 AS n FROM vault WHERE kind = ?", kind)
    .one().n;
  sql.exec("INSERT INTO vault (kind, key, n, value) VALUES (?, ?, ?, ?)", kind, key, n, value);
  addMeta(sql, "vault_entries", 1);
  return token(kind, n);
}

const token = (kind: PiiKind, n: number): string => `[${kind}_${n}]`;
