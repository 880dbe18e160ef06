import type { AuditEntry } from "./entry";

/** One row of the `entries` table (docs/storage-schema.md): an AuditEntry in SQL's columns. */
export type EntryRow = {
  ts: number;
  request_id: string;
  team: string;
  key_id: string;
  session_id: string | null;
  kind: string;
  tool: string;
  args_sha256: string;
  status: string;
  error: string | null;
  duration_ms: number;
  result_bytes: number;
  tool_calls: number | null;
  decided_by: string | null;
  worker: string | null;
  user: string | null;
  trace_id: string | null;
};

/** The columns of an EntryRow, in the order of `entryRowValues`. */
export const ENTRY_COLUMNS =
  "ts, request_id, team, key_id, session_id, kind, tool, args_sha256, status, error, duration_ms, result_bytes, tool_calls, decided_by, worker, user, trace_id";

/** One `?` per column of ENTRY_COLUMNS. */
export const ENTRY_PLACEHOLDERS = ENTRY_COLUMNS.split(",")
  .map(() => "?")
  .join(", ");

/** An entry's values for `INSERT INTO entries (${ENTRY_COLUMNS})`, in that order. */
export function entryRowValues(e: AuditEntry): Array<string | number | null> {
  return [
    e.ts,
    e.requestId,
    e.team,
    e.keyId,
    e.sessionId ?? null,
    e.kind,
    e.tool,
    e.argsSha256,
    e.status,
    e.error ?? null,
    e.durationMs,
    e.resultBytes,
    e.toolCalls ?? null,
    e.decidedBy ?? null,
    e.worker ?? null,
    e.user ?? null,
    e.traceId ?? null,
  ];
}

/** A row read back as the entry it was written from. */
export function toEntry(r: EntryRow): AuditEntry {
  return {
    ts: r.ts,
    requestId: r.request_id,
    ...(r.trace_id !== null ? { traceId: r.trace_id } : {}),
    team: r.team,
    keyId: r.key_id,
    ...(r.user !== null ? { user: r.user } : {}),
    ...(r.session_id !== null ? { sessionId: r.session_id } : {}),
    kind: r.kind as AuditEntry["kind"],
    tool: r.tool,
    argsSha256: r.args_sha256,
    status: r.status as AuditEntry["status"],
    ...(r.error !== null ? { error: r.error } : {}),
    durationMs: r.duration_ms,
    resultBytes: r.result_bytes,
    ...(r.tool_calls !== null ? { toolCalls: r.tool_calls } : {}),
    ...(r.decided_by !== null ? { decidedBy: r.decided_by as NonNullable<AuditEntry["decidedBy"]> } : {}),
    ...(r.worker !== null ? { worker: r.worker } : {}),
  };
}

/**
 * The `kind` / `status` filters as SQL with the value written in (from these closed lists, never
 * from input), so that SQLite can prove a filter on a rare value implies `entries_rare`'s condition
 * and read that partial index; a bound parameter would hide the value from the planner.
 */
export const KIND_SQL: Record<AuditEntry["kind"], string> = {
  execute: "kind = 'execute'",
  tool_call: "kind = 'tool_call'",
  approval: "kind = 'approval'",
};
export const STATUS_SQL: Record<AuditEntry["status"], string> = {
  ok: "status = 'ok'",
  error: "status = 'error'",
  cancelled: "status = 'cancelled'",
};
