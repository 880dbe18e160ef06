import type { AuditBatch, AuditEntry } from "./entry";

/** How long a written batch's id is kept: its sender sends a batch again within seconds, if at all. */
const BATCH_MEMORY_MS = 10 * 60_000;

/** A batch as the audit log writes it: with an id (written once), or without (an `append` without one). */
export type Batch = Pick<AuditBatch, "entries"> & { id?: string | undefined };

/** The table of written batches' ids (docs/storage-schema.md). */
export function createBatchTable(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS batches (id TEXT PRIMARY KEY, ts INTEGER NOT NULL) WITHOUT ROWID");
  sql.exec("CREATE INDEX IF NOT EXISTS batches_ts ON batches (ts)");
}

/**
 * Inside the caller's transaction: the entries of `batches` whose id was not written before (each
 * id is recorded now), and ids older than BATCH_MEMORY_MS forgotten.
 */
export function unwrittenEntries(sql: SqlStorage, batches: Batch[], now: number): AuditEntry[] {
  const entries: AuditEntry[] = [];
  for (const batch of batches) {
    if (batch.id !== undefined) {
      if (sql.exec("SELECT 1 FROM batches WHERE id = ?", batch.id).toArray().length > 0) continue;
      sql.exec("INSERT INTO batches (id, ts) VALUES (?, ?)", batch.id, now);
    }
    entries.push(...batch.entries);
  }
  sql.exec("DELETE FROM batches WHERE ts < ?", now - BATCH_MEMORY_MS);
  return entries;
}
