import { z } from "zod";

/** Identifiers the gateway makes or has checked: request ids, key ids, session ids, team names. */
const Id = z.string().min(1).max(128);

/**
 * One audit row: an execution, one upstream tool call made from it, or a decision on a call that
 * needed approval. Never the arguments or the result themselves: a SHA-256 of the arguments'
 * canonical JSON and the result's size.
 */
export const AuditEntry = z.object({
  /** when it started, ms since epoch */
  ts: z.number().int().nonnegative(),
  requestId: Id,
  team: Id,
  keyId: Id,
  sessionId: Id.optional(),
  kind: z.enum(["execute", "tool_call", "approval"]),
  /** the qualified tool name as called, or "execute" */
  tool: z.string().min(1).max(200),
  argsSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** approval: ok = approved, error = denied / timed out (the error names which) */
  status: z.enum(["ok", "error", "cancelled"]),
  /** the error's name only (`ValidationError`), never its message: messages can echo data */
  error: z.string().min(1).max(64).optional(),
  /** for an approval: how long the call waited */
  durationMs: z.number().int().nonnegative(),
  /** UTF-8 bytes of the result's JSON (0 when there is none) */
  resultBytes: z.number().int().nonnegative(),
  /** for an execution: the tool calls its code made (a session's history reports them) */
  toolCalls: z.number().int().nonnegative().optional(),
  /** for an approval: who decided (`gateway`: nobody in time, or the execution ended first) */
  decidedBy: z.enum(["client", "operator", "gateway"]).optional(),
  /**
   * for an execution: the Dynamic Worker that ran it, a warm worker's id `<team>:<engine version>:<slot>`
   * (quickjs) or `load` (a fresh one for this execution)
   */
  worker: z
    .string()
    .regex(/^(?:load|[a-z][a-z0-9_-]{0,31}:[a-z0-9-]{1,40}:\d{1,3})$/)
    .optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AUDIT_QUERY_DEFAULT_LIMIT = 100;
export const AUDIT_QUERY_MAX_LIMIT = 1000;

/** What `AuditLog.query` takes: both bounds inclusive, ms since epoch; `limit` is clamped to 1–1000. */
export const AuditQuery = z.object({
  since: z.number().int().nonnegative().optional(),
  until: z.number().int().nonnegative().optional(),
  tool: z.string().min(1).max(200).optional(),
  limit: z
    .number()
    .int()
    .transform((n) => Math.min(Math.max(n, 1), AUDIT_QUERY_MAX_LIMIT))
    .optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** Retention bounds for AUDIT_RETENTION_DAYS. */
export const RETENTION_DEFAULT_DAYS = 30;
export const RETENTION_MAX_DAYS = 3650;
