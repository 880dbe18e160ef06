import type { SessionAnswer, SessionQuota } from "../../shared/contract/session";
import { fail } from "./answer";
import { readMeta } from "./schema";

/** The QuotaError when changing `freed` stored bytes into `added` would pass the byte quota. */
export function overBytes(
  sql: SqlStorage,
  quota: SessionQuota,
  freed: number,
  added: number,
): SessionAnswer | null {
  const used = readMeta(sql, "bytes_used");
  const after = used - freed + added;
  if (after <= quota.quotaBytes) return null;
  return fail(
    "QuotaError",
    `session storage is full: this write needs ${added} bytes, ${used} of ${quota.quotaBytes} are used ` +
      `(${after} after it). Delete files or state you no longer need first (operator setting: SESSION_QUOTA_BYTES)`,
  );
}

export function tooManyFiles(files: number, quota: SessionQuota, path: string): SessionAnswer | null {
  if (files + 1 <= quota.maxFiles) return null;
  return fail(
    "QuotaError",
    `the session holds ${files} files, the most SESSION_MAX_FILES allows is ${quota.maxFiles}; delete one first`,
    path,
  );
}
