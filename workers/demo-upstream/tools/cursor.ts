import { z } from "zod";
import { ToolError } from "./common";

export const pageArgs = {
  limit: z.number().int().min(1).max(100).default(20).describe("Page size, 1-100 (default 20)."),
  cursor: z
    .string()
    .max(512)
    .optional()
    .describe("nextCursor from the previous page, unchanged; keep the filters the same. Omit for page one."),
};

export interface Page<T> {
  items: T[];
  total: number;
  nextCursor?: string;
}

const CursorBody = z.object({ v: z.literal(1), after: z.number().int(), query: z.string() });

/** FNV-1a of the filters, so a cursor cannot silently continue a different query. */
function fingerprint(query: Record<string, unknown>): string {
  const text = JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

function encode(after: number, query: string): string {
  return btoa(JSON.stringify({ v: 1, after, query })).replace(/=+$/, "");
}

function decode(cursor: string, query: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(atob(cursor));
  } catch {
    parsed = undefined;
  }
  const body = CursorBody.safeParse(parsed);
  if (!body.success) throw new ToolError("Invalid cursor: pass nextCursor back exactly as it was returned");
  if (body.data.query !== query) {
    throw new ToolError(
      "This cursor belongs to a query with other filters; repeat the filters of the first page",
    );
  }
  return body.data.after;
}

/**
 * Keyset pagination over `matches`, which are sorted by `seq` (ascending or descending). The cursor
 * remembers the last `seq` returned, so records added or changed between pages do not shift the rest.
 */
export function paginate<T>(
  matches: readonly T[],
  seq: (item: T) => number,
  order: "asc" | "desc",
  args: { limit: number; cursor?: string | undefined },
  query: Record<string, unknown>,
): Page<T> {
  const key = fingerprint(query);
  let start = 0;
  if (args.cursor !== undefined) {
    const after = decode(args.cursor, key);
    const next = matches.findIndex((m) => (order === "asc" ? seq(m) > after : seq(m) < after));
    start = next === -1 ? matches.length : next;
  }
  const items = matches.slice(start, start + args.limit);
  const last = items.at(-1);
  const more = start + items.length < matches.length && last !== undefined;
  return { items, total: matches.length, ...(more ? { nextCursor: encode(seq(last), key) } : {}) };
}

/** "tkt_000123" → 123: ids are zero-padded sequence numbers. */
export function idSeq(id: string): number {
  return Number.parseInt(id.slice(id.indexOf("_") + 1), 10);
}
