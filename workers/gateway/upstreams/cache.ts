import { z } from "zod";
import { UpstreamTool } from "../../../shared/contract/tools";
import { LeftOutTool } from "./tool-list";

/** What the tool-list cache entry of an OpenAPI server remembers of its description. */
const DescriptionVersion = z.object({
  /** SHA-256 of the description's bytes */
  version: z.string(),
  /** the KV key of its operation index */
  index: z.string(),
  etag: z.string().optional(),
});

/**
 * One upstream's tool list in KV (docs/storage-schema.md). Kept well past its TTL so that a stale
 * list can be served when a refresh fails.
 */
export const CacheEntry = z.object({
  fetchedAt: z.number(),
  tools: z.array(UpstreamTool),
  /** tools the server lists but the catalog does not offer (tool-list.ts), and why */
  leftOut: z.array(LeftOutTool).optional(),
  server: z.object({ name: z.string(), version: z.string() }).optional(),
  /** the upstream marked its list public (2026-07-28 `cacheScope: "public"`): one list for every user */
  public: z.boolean().optional(),
  /** SHA-256 of its tools' JSON: the same list has the same one (discovery finds its index by it) */
  listVersion: z.string().optional(),
  /** an OpenAPI server's description version and the KV key of its operation index */
  openapi: DescriptionVersion.optional(),
  /** the last refresh failure since fetchedAt, if any */
  lastError: z.string().optional(),
  lastAttemptAt: z.number().optional(),
});
export type CacheEntry = z.infer<typeof CacheEntry>;

const KEEP_STALE_SECONDS = 30 * 86_400;
const MEMO_MS = 5_000;
/** Per-isolate state: catalog entries read from KV, each trusted for MEMO_MS. */
const memo = new Map<string, { at: number; entry: CacheEntry | null }>();

export function cacheKey(team: string, server: string, configHash: string): string {
  return `tools:v1:${team}:${server}:${configHash.slice(0, 16)}`;
}

export async function readEntry(kv: KVNamespace, key: string): Promise<CacheEntry | null> {
  const hit = memo.get(key);
  if (hit && Date.now() - hit.at < MEMO_MS) return hit.entry;
  const raw = await kv.get(key, "json");
  const parsed = raw === null ? null : CacheEntry.safeParse(raw);
  const entry = parsed?.success ? parsed.data : null;
  memo.set(key, { at: Date.now(), entry });
  return entry;
}

export async function writeEntry(
  kv: KVNamespace,
  key: string,
  entry: CacheEntry,
  ttlSeconds: number,
): Promise<void> {
  memo.set(key, { at: Date.now(), entry });
  await kv.put(key, JSON.stringify(entry), { expirationTtl: Math.max(ttlSeconds * 2, KEEP_STALE_SECONDS) });
}

export function forgetMemo(): void {
  memo.clear();
}
