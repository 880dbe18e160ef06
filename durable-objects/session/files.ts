import {
  type FileInfo,
  pathProblem,
  SESSION_LIMITS,
  type SessionAnswer,
  type SessionQuota,
} from "../../shared/contract/session";
import { isoTime } from "../../shared/contract/time";
import { fail, ok } from "./answer";
import { overBytes, tooManyFiles } from "./quota";
import { addMeta } from "./schema";
import { isWellFormed, startsWith } from "./text";

/** SQLite values are capped at ~2 MB, so a file is stored as rows of at most this many bytes. */
const CHUNK_BYTES = 1024 * 1024;

type FileRow = { path: string; size: number; modified_at: number };

export function badPath(path: string): SessionAnswer | null {
  const problem =
    pathProblem(path) ?? (isWellFormed(path) ? undefined : "the path contains a lone surrogate");
  if (problem === undefined) return null;
  const shown = path.slice(0, SESSION_LIMITS.maxPathChars);
  return fail("InvalidPathError", `${JSON.stringify(shown)} is not a workspace path: ${problem}`, shown);
}

/** Replaces the whole file in one transaction: a refused or failed write leaves the old one as it was. */
export function writeFile(
  storage: DurableObjectStorage,
  path: string,
  data: Uint8Array,
  quota: SessionQuota,
): SessionAnswer {
  const sql = storage.sql;
  return storage.transactionSync(() => {
    const oldSize = fileRow(sql, path)?.size;
    const refused =
      overBytes(sql, quota, oldSize ?? 0, data.byteLength) ??
      (oldSize === undefined ? tooManyFiles(fileCount(sql), quota, path) : null);
    if (refused) return refused;
    sql.exec("DELETE FROM chunks WHERE path = ?", path);
    for (let idx = 0, at = 0; at < data.byteLength; idx++, at += CHUNK_BYTES) {
      const chunk = data.slice(at, at + CHUNK_BYTES).buffer;
      sql.exec("INSERT INTO chunks (path, idx, data) VALUES (?, ?, ?)", path, idx, chunk);
    }
    const modifiedAt = Date.now();
    sql.exec(
      `INSERT INTO files (path, size, modified_at) VALUES (?, ?, ?)
       ON CONFLICT (path) DO UPDATE SET size = excluded.size, modified_at = excluded.modified_at`,
      path,
      data.byteLength,
      modifiedAt,
    );
    addMeta(sql, "bytes_used", data.byteLength - (oldSize ?? 0));
    return ok(fileInfo({ path, size: data.byteLength, modified_at: modifiedAt }));
  });
}

export function readFile(sql: SqlStorage, path: string): SessionAnswer {
  const file = fileRow(sql, path);
  if (!file) return notFound(path);
  const bytes = new Uint8Array(file.size);
  let at = 0;
  for (const row of sql.exec<{ data: ArrayBuffer }>(
    "SELECT data FROM chunks WHERE path = ? ORDER BY idx",
    path,
  )) {
    bytes.set(new Uint8Array(row.data), at);
    at += row.data.byteLength;
  }
  if (at !== file.size)
    throw new Error(`workspace file ${path} holds ${at} bytes, its record says ${file.size}`);
  return ok(bytes);
}

export function listFiles(sql: SqlStorage, prefix: string | undefined): SessionAnswer {
  const { where, params } = startsWith("path", prefix);
  const rows = sql.exec<FileRow>(
    `SELECT path, size, modified_at FROM files WHERE ${where} ORDER BY path LIMIT ?`,
    ...params,
    SESSION_LIMITS.maxListed,
  );
  return ok(rows.toArray().map(fileInfo));
}

/** A file as code sees it: the stored ms as ISO time. */
function fileInfo(row: FileRow): FileInfo {
  return { path: row.path, size: row.size, modifiedAt: isoTime(row.modified_at) };
}

export function deleteFile(storage: DurableObjectStorage, path: string): SessionAnswer {
  const sql = storage.sql;
  return storage.transactionSync(() => {
    const file = fileRow(sql, path);
    if (!file) return ok(false);
    sql.exec("DELETE FROM chunks WHERE path = ?", path);
    sql.exec("DELETE FROM files WHERE path = ?", path);
    addMeta(sql, "bytes_used", -file.size);
    return ok(true);
  });
}

export function fileCount(sql: SqlStorage): number {
  return sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM files").one().n;
}

function fileRow(sql: SqlStorage, path: string): FileRow | undefined {
  return sql.exec<FileRow>("SELECT path, size, modified_at FROM files WHERE path = ?", path).toArray()[0];
}

function notFound(path: string): SessionAnswer {
  return fail("NotFoundError", `no workspace file ${JSON.stringify(path)}`, path);
}
