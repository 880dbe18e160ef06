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
  /** the request's trace id (W3C), when it had one: the caller's, or the gateway's when traces are exported */
  traceId: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional(),
  team: Id,
  keyId: Id,
  /** who the request acted as: its key's `user`, else the key's id (`dev` for DEV_API_KEY); none in rows from before users */
  user: z.string().min(1).max(200).optional(),
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

/**
 * Entries a gateway isolate sends together, named by an id it makes (a UUID): a batch sent again
 * after a failed call whose answer was lost is written once (docs/storage-schema.md, `batches`).
 */
export interface AuditBatch {
  id: string;
  entries: AuditEntry[];
}

/** Batches a call to the team's audit log carries besides its own work (an admit), with the retention. */
export interface CarriedAudit {
  batches: AuditBatch[];
  retentionDays: number;
}

export const AUDIT_QUERY_DEFAULT_LIMIT = 100;
export const AUDIT_QUERY_MAX_LIMIT = 1000;

/**
 * A row's place in the listing's order (`ts DESC, rowid DESC`): `AuditLog.page` returns the last
 * row's as `next`, and a query with `before` set to it reads the rows strictly after it in that order.
 */
export const AuditCursor = z.object({
  ts: z.number().int().nonnegative(),
  rowid: z.number().int().positive(),
});
export type AuditCursor = z.infer<typeof AuditCursor>;

/**
 * What `AuditLog.query` and `AuditLog.page` take: both bounds inclusive, ms since epoch; `limit` is
 * clamped to 1–1000; `kind`, `status` and `tool` must all match; `before` pages on from a cursor.
 */
export const AuditQuery = z.object({
  since: z.number().int().nonnegative().optional(),
  until: z.number().int().nonnegative().optional(),
  tool: z.string().min(1).max(200).optional(),
  kind: AuditEntry.shape.kind.optional(),
  status: AuditEntry.shape.status.optional(),
  before: AuditCursor.optional(),
  limit: z
    .number()
    .int()
    .transform((n) => Math.min(Math.max(n, 1), AUDIT_QUERY_MAX_LIMIT))
    .optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** `AuditLog.page`: newest first; `next` only when a row older than the last one may follow. */
export interface AuditPage {
  entries: AuditEntry[];
  next?: AuditCursor;
}

/** What `AuditLog.usage` takes: ms since epoch, both inclusive, `since` not after `until`. */
export const AuditUsageRange = z
  .object({
    since: z.number().int().nonnegative(),
    until: z.number().int().nonnegative(),
  })
  .refine((r) => r.since <= r.until, { path: ["since"], error: "must not be after until" });
export type AuditUsageRange = z.infer<typeof AuditUsageRange>;

/** `AuditUsage.hours`: one hour's executions (`hour`: ms since epoch of its start, UTC). */
export interface AuditUsageHour {
  hour: number;
  executions: number;
  /** executions with status `error` (a cancelled one is not an error) */
  errors: number;
}

/** `AuditUsage.days`: one UTC day's executions. */
export interface AuditUsageDay {
  /** YYYY-MM-DD, UTC */
  day: string;
  executions: number;
  errors: number;
  /** the tool calls the day's executions made (the sum of their `toolCalls`) */
  toolCalls: number;
  /** execution duration percentiles, as their histogram bucket's upper bound (within ~19 %) */
  p50Ms: number | null;
  p95Ms: number | null;
}

/** `AuditUsage.topTools`: one tool's `tool_call` entries over the range's days. */
export interface AuditUsageTool {
  tool: string;
  calls: number;
  errors: number;
}

/**
 * `AuditLog.usage(since, until)`, read from the aggregate tables only: `hours` at hour granularity
 * (only hours with executions, ascending), `days` and `topTools` at day granularity (a UTC day counts
 * when any of it is in the range; `days` ascending, only days with executions; `topTools` the 10
 * tools with the most calls, most first, ties by name).
 */
export interface AuditUsage {
  hours: AuditUsageHour[];
  days: AuditUsageDay[];
  topTools: AuditUsageTool[];
}

/** Retention bounds for AUDIT_RETENTION_DAYS. */
export const RETENTION_DEFAULT_DAYS = 30;
export const RETENTION_MAX_DAYS = 3650;

/**
 * `schema.parse`, failing with a TypeError that lists the problems by field: a ZodError reaches an
 * RPC caller as its bare name, `ZodError`, without them.
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown, what: string): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new TypeError(`Invalid ${what}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A retention in whole days, clamped to RETENTION_MAX_DAYS; not a positive integer → the default. */
export function clampRetention(days: number): number {
  return Number.isInteger(days) && days >= 1 ? Math.min(days, RETENTION_MAX_DAYS) : RETENTION_DEFAULT_DAYS;
}
