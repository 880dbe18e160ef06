import { z } from "zod";
import { SESSION_LIMITS } from "./caps";
import { IsoTime } from "./time";

export { SESSION_LIMITS } from "./caps";

/**
 * Session state as it crosses two boundaries: sandbox isolate → gateway (the bridge's `session()`
 * call, written by untrusted code) and gateway → SessionObject (Durable Object RPC). One zod schema
 * per call is the only description of both.
 */

export const StateKey = z.string().min(1).max(SESSION_LIMITS.maxKeyChars);
/** Checked in full by `pathProblem` (the DO and the gateway both call it). */
const PathText = z.string().max(SESSION_LIMITS.maxPathChars * 4);
const Prefix = z.string().max(SESSION_LIMITS.maxPathChars).optional();

export const SessionCall = z.discriminatedUnion("op", [
  z.object({ op: z.literal("state.get"), key: StateKey }),
  z.object({
    op: z.literal("state.set"),
    key: StateKey,
    json: z.string().max(SESSION_LIMITS.maxStateValueChars),
  }),
  z.object({ op: z.literal("state.delete"), key: StateKey }),
  z.object({ op: z.literal("state.keys"), prefix: Prefix }),
  z.object({
    op: z.literal("workspace.write"),
    path: PathText,
    data: z
      .custom<Uint8Array>((d) => d instanceof Uint8Array, { error: "data must be a Uint8Array" })
      .refine((d) => d.byteLength <= SESSION_LIMITS.maxFileBytes, {
        error: `a file may hold at most ${SESSION_LIMITS.maxFileBytes} bytes`,
      }),
  }),
  z.object({ op: z.literal("workspace.read"), path: PathText }),
  z.object({ op: z.literal("workspace.list"), prefix: Prefix }),
  z.object({ op: z.literal("workspace.delete"), path: PathText }),
  z.object({ op: z.literal("session.info") }),
  z.object({ op: z.literal("session.history") }),
]);
export type SessionCall = z.infer<typeof SessionCall>;
export type SessionOp = SessionCall["op"];

/** Errors a session call throws in code, by name. */
export type SessionErrorName =
  | "QuotaError"
  | "NotFoundError"
  | "InvalidPathError"
  | "NoSessionError"
  | "SessionNotFoundError"
  | "TypeError";

export type SessionAnswer =
  | { ok: true; value: unknown }
  | { ok: false; error: { name: SessionErrorName; message: string; path?: string } };

export const FileInfo = z.object({ path: z.string(), size: z.number(), modifiedAt: IsoTime });
export type FileInfo = z.infer<typeof FileInfo>;

export const HistoryEntry = z.object({
  /** when the execution started */
  at: IsoTime,
  durationMs: z.number(),
  toolCalls: z.number(),
  error: z.string().optional(),
  resultBytes: z.number(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const SessionInfo = z.object({
  id: z.string(),
  createdAt: IsoTime,
  lastSeenAt: IsoTime,
  bytesUsed: z.number(),
  quotaBytes: z.number(),
  files: z.number(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

/** What a session may hold; from SESSION_QUOTA_BYTES / SESSION_MAX_FILES. */
export interface SessionQuota {
  quotaBytes: number;
  maxFiles: number;
}

/**
 * Why `path` is not a workspace path, or undefined when it is one: relative, `/`-separated, no
 * empty, `.` or `..` segment, no leading or trailing `/`, no `\`, no control characters.
 */
export function pathProblem(path: string): string | undefined {
  if (path.length === 0) return "the path is empty";
  if (path.length > SESSION_LIMITS.maxPathChars)
    return `the path is ${path.length} characters; at most ${SESSION_LIMITS.maxPathChars} are allowed`;
  if (path.startsWith("/")) return "the path must be relative (no leading /)";
  if (path.endsWith("/")) return "the path names a folder (trailing /); name a file";
  if (path.includes("\\")) return "use / to separate folders, not \\";
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return "the path contains a control character";
  }
  for (const segment of path.split("/")) {
    if (segment === "") return "the path has an empty segment (//)";
    if (segment === "." || segment === "..") return `the path may not contain a "${segment}" segment`;
    if (segment.length > SESSION_LIMITS.maxSegmentChars)
      return `a path segment is longer than ${SESSION_LIMITS.maxSegmentChars} characters`;
  }
  return undefined;
}

/** PII kinds, as the token names them: `[EMAIL_1]`. */
export const PII_KINDS = ["EMAIL", "PHONE", "CARD", "SSN", "IBAN", "IP"] as const;
export type PiiKind = (typeof PII_KINDS)[number];

/** A detected value for the vault: `key` is its normalized form (equal keys → one token). */
export const PiiItem = z.object({
  kind: z.enum(PII_KINDS),
  key: z.string().max(200),
  value: z.string().max(200),
});
export type PiiItem = z.infer<typeof PiiItem>;
