import { z } from "zod";
import { AUDIT_QUERY_MAX_LIMIT, type AuditQuery } from "../../../durable-objects/audit/entry";

const TIME_ERROR = "expected ms since epoch or an ISO 8601 date-time";

/** `since` / `until`: ms since epoch ("1767225600000") or an ISO 8601 date-time. */
const Instant = z
  .string()
  .trim()
  .min(1, { error: TIME_ERROR })
  .transform((raw, ctx) => {
    const ms = /^\d+$/.test(raw)
      ? Number(raw)
      : /^\d{4}-\d{2}-\d{2}/.test(raw)
        ? Date.parse(raw)
        : Number.NaN;
    if (!Number.isSafeInteger(ms) || ms < 0) {
      ctx.addIssue({ code: "custom", message: TIME_ERROR });
      return z.NEVER;
    }
    return ms;
  });

/** GET /v1/audit's query string; unknown parameters are ignored. */
export const AuditQueryParams = z
  .object({
    since: Instant.optional(),
    until: Instant.optional(),
    tool: z.string().min(1).max(200).optional(),
    limit: z
      .string()
      .regex(/^\d+$/, { error: `expected a whole number from 1 to ${AUDIT_QUERY_MAX_LIMIT}` })
      .transform(Number)
      .pipe(
        z
          .number()
          .min(1, { error: "must be at least 1" })
          .max(AUDIT_QUERY_MAX_LIMIT, { error: `must be at most ${AUDIT_QUERY_MAX_LIMIT}` }),
      )
      .optional(),
  })
  .refine((q) => q.since === undefined || q.until === undefined || q.since <= q.until, {
    path: ["since"],
    error: "must not be after until",
  });

/** The parsed query, or the problems as `field: message` strings. */
export function parseAuditQuery(
  raw: Record<string, string>,
): { ok: true; query: AuditQuery } | { ok: false; problems: string[] } {
  const parsed = AuditQueryParams.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`),
    };
  const { since, until, tool, limit } = parsed.data;
  return {
    ok: true,
    query: {
      ...(since !== undefined ? { since } : {}),
      ...(until !== undefined ? { until } : {}),
      ...(tool !== undefined ? { tool } : {}),
      ...(limit !== undefined ? { limit } : {}),
    },
  };
}
