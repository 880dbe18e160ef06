import { HistoryEntry, SESSION_LIMITS } from "../../shared/contract/session";

/** An error text longer than this is cut: history is a summary, not a log. */
const MAX_ERROR_CHARS = 1_000;

type Row = {
  at: number;
  duration_ms: number;
  tool_calls: number;
  error: string | null;
  result_bytes: number;
};

/** Appends one execution and drops all but the newest SESSION_LIMITS.maxHistory; false for an invalid entry. */
export function appendHistory(storage: DurableObjectStorage, input: HistoryEntry): boolean {
  const parsed = HistoryEntry.safeParse(input);
  if (!parsed.success) return false;
  const e = parsed.data;
  const sql = storage.sql;
  storage.transactionSync(() => {
    sql.exec(
      "INSERT INTO history (at, duration_ms, tool_calls, error, result_bytes) VALUES (?, ?, ?, ?, ?)",
      e.at,
      e.durationMs,
      e.toolCalls,
      e.error === undefined ? null : e.error.slice(0, MAX_ERROR_CHARS),
      e.resultBytes,
    );
    sql.exec("DELETE FROM history WHERE id <= (SELECT MAX(id) FROM history) - ?", SESSION_LIMITS.maxHistory);
  });
  return true;
}

/** Newest first. */
export function readHistory(sql: SqlStorage): HistoryEntry[] {
  const rows = sql.exec<Row>(
    "SELECT at, duration_ms, tool_calls, error, result_bytes FROM history ORDER BY id DESC LIMIT ?",
    SESSION_LIMITS.maxHistory,
  );
  return rows.toArray().map((r) => ({
    at: r.at,
    durationMs: r.duration_ms,
    toolCalls: r.tool_calls,
    ...(r.error !== null ? { error: r.error } : {}),
    resultBytes: r.result_bytes,
  }));
}
