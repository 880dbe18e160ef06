/** Tables of a session's SQLite database: docs/storage-schema.md (`SESSIONS`). */
const STATEMENTS = [
  "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",
  "CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, json TEXT NOT NULL, bytes INTEGER NOT NULL)",
  "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, size INTEGER NOT NULL, modified_at INTEGER NOT NULL)",
  `CREATE TABLE IF NOT EXISTS chunks (
    path TEXT NOT NULL, idx INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (path, idx))`,
  `CREATE TABLE IF NOT EXISTS vault (
    kind TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, key))`,
  "CREATE UNIQUE INDEX IF NOT EXISTS vault_n ON vault (kind, n)",
];

export function createSchema(sql: SqlStorage): void {
  for (const statement of STATEMENTS) sql.exec(statement);
}

export type MetaKey = "bytes_used" | "vault_entries";

export function readMeta(sql: SqlStorage, key: MetaKey): number {
  return sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value ?? 0;
}

export function addMeta(sql: SqlStorage, key: MetaKey, delta: number): void {
  if (delta === 0) return;
  sql.exec(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value",
    key,
    delta,
  );
}
