import { SESSION_LIMITS, type SessionAnswer, type SessionQuota } from "../../shared/contract/session";
import { fail, ok } from "./answer";
import { overBytes } from "./quota";
import { addMeta } from "./schema";
import { isWellFormed, startsWith, utf8Bytes } from "./text";

/** The session's `state` key-value store: JSON text by key, counted in the byte quota as key + JSON. */
export function badKey(key: string): SessionAnswer | null {
  return isWellFormed(key)
    ? null
    : fail("TypeError", "the state key is not well-formed Unicode (a lone surrogate)");
}

export function getState(sql: SqlStorage, key: string): SessionAnswer {
  return ok(sql.exec<{ json: string }>("SELECT json FROM state WHERE key = ?", key).toArray()[0]?.json);
}

export function setState(
  storage: DurableObjectStorage,
  key: string,
  json: string,
  quota: SessionQuota,
): SessionAnswer {
  const sql = storage.sql;
  return storage.transactionSync(() => {
    const old = oldBytes(sql, key);
    const bytes = utf8Bytes(key) + utf8Bytes(json);
    const refused = overBytes(sql, quota, old, bytes);
    if (refused) return refused;
    sql.exec(
      "INSERT INTO state (key, json, bytes) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET json = excluded.json, bytes = excluded.bytes",
      key,
      json,
      bytes,
    );
    addMeta(sql, "bytes_used", bytes - old);
    return ok(null);
  });
}

export function deleteState(storage: DurableObjectStorage, key: string): SessionAnswer {
  const sql = storage.sql;
  return storage.transactionSync(() => {
    const row = sql.exec<{ bytes: number }>("SELECT bytes FROM state WHERE key = ?", key).toArray()[0];
    if (!row) return ok(false);
    sql.exec("DELETE FROM state WHERE key = ?", key);
    addMeta(sql, "bytes_used", -row.bytes);
    return ok(true);
  });
}

export function stateKeys(sql: SqlStorage, prefix: string | undefined): SessionAnswer {
  const { where, params } = startsWith("key", prefix);
  const rows = sql.exec<{ key: string }>(
    `SELECT key FROM state WHERE ${where} ORDER BY key LIMIT ?`,
    ...params,
    SESSION_LIMITS.maxListed,
  );
  return ok(rows.toArray().map((r) => r.key));
}

function oldBytes(sql: SqlStorage, key: string): number {
  return sql.exec<{ bytes: number }>("SELECT bytes FROM state WHERE key = ?", key).toArray()[0]?.bytes ?? 0;
}
