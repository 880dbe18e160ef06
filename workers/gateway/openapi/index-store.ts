import { z } from "zod";
import { hex } from "../../../shared/hash";
import { globMatcher } from "../teams/policy";
import type { Span } from "../tracing/trace";
import type { CacheEntry } from "../upstreams/cache";
import type { UpstreamServer } from "../upstreams/config";
import type { ConvertedApi } from "./convert";
import { describeApi } from "./describe";
import { readCapped, sendTo } from "./http";

/** GitHub's REST description is about 10 MB; past this a description is refused. */
const MAX_DESCRIPTION_BYTES = 32 * 1024 * 1024;
const KEEP_SECONDS = 30 * 86_400;
/** Per-isolate state: operation indexes read from KV (their keys name their content: never stale). */
const indexes = new Map<string, Promise<OperationIndex | null>>();
const MAX_MEMO = 64;

const CallParam = z.object({
  arg: z.string(),
  name: z.string(),
  in: z.enum(["path", "query", "header"]),
  style: z.enum(["multi", "csv", "ssv", "pipes", "deepObject"]).optional(),
});
const Operation = z.object({
  method: z.string(),
  path: z.string(),
  server: z.string().optional(),
  params: z.array(CallParam),
  body: z.object({ contentType: z.string(), required: z.boolean() }).optional(),
});

/** How each operation of one description version is called (docs/storage-schema.md `openapi:v1:`). */
export const OperationIndex = z.object({
  /** the description's first server, resolved against the description's URL */
  server: z.string().optional(),
  operations: z.record(z.string(), Operation),
});
export type OperationIndex = z.infer<typeof OperationIndex>;

export const indexKey = (team: string, server: string, version: string): string =>
  `openapi:v1:${team}:${server}:${version.slice(0, 32)}`;

/**
 * An OpenAPI server's tools, as a tool-list cache entry. The description is fetched (conditionally,
 * with the ETag last seen) and parsed only when its bytes changed: the same version keeps its tools
 * and its operation index, so a description is parsed once per (team, description version).
 */
export async function fetchOperationTools(
  deps: { kv: KVNamespace; team: string; span?: Span | undefined },
  server: UpstreamServer,
  timeoutMs: number,
  old: CacheEntry | null,
): Promise<CacheEntry> {
  const source = server.openapi!;
  const known = old?.fetchedAt && old.openapi ? old.openapi : undefined;
  const headers: Record<string, string> = { ...server.headers, Accept: "application/json" };
  if (known?.etag) headers["If-None-Match"] = known.etag;
  const signal = AbortSignal.timeout(timeoutMs);
  const res = await sendTo(server, source.descriptionUrl, { headers, signal }, deps.span);
  const unchanged = (etag = known?.etag): CacheEntry => {
    const { lastError: _e, lastAttemptAt: _a, ...kept } = old!;
    return { ...kept, fetchedAt: Date.now(), openapi: { ...known!, ...(etag ? { etag } : {}) } };
  };
  if (res.status === 304 && known) return unchanged();
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`the description at ${source.descriptionUrl} answered HTTP ${res.status}`);
  }
  const bytes = await readCapped(res, MAX_DESCRIPTION_BYTES, (n) => `the description is over ${n} bytes`);
  const version = hex(await crypto.subtle.digest("SHA-256", bytes));
  const etag = res.headers.get("ETag") ?? undefined;
  if (known?.version === version) return unchanged(etag);
  const api = await describeApi(new TextDecoder().decode(bytes));
  const { tools, operations } = offered(api, source.include, source.exclude);
  const index = indexKey(deps.team, server.name, version);
  const kept: OperationIndex = {
    ...(api.server ? { server: new URL(api.server, source.descriptionUrl).href } : {}),
    operations,
  };
  await deps.kv.put(index, JSON.stringify(kept), { expirationTtl: KEEP_SECONDS });
  indexes.set(index, Promise.resolve(kept));
  return {
    fetchedAt: Date.now(),
    tools,
    server: { name: api.info.title, version: api.info.version },
    openapi: { version, index, ...(etag ? { etag } : {}) },
  };
}

/** The operations `include`/`exclude` (globs over tool names) leave. */
function offered(api: ConvertedApi, include?: string[], exclude?: string[]): ConvertedApi {
  const inc = include?.map(globMatcher);
  const exc = exclude?.map(globMatcher) ?? [];
  const keep = (name: string) => (!inc || inc.some((m) => m(name))) && !exc.some((m) => m(name));
  const tools = api.tools.filter((t) => keep(t.name));
  return {
    ...api,
    tools,
    operations: Object.fromEntries(tools.map((t) => [t.name, api.operations[t.name]!])),
  };
}

/** An operation index by its key (memoized: a key names one description version's index). */
export function readIndex(kv: KVNamespace, key: string): Promise<OperationIndex | null> {
  let hit = indexes.get(key);
  if (!hit) {
    hit = kv.get(key, "json").then((raw) => {
      const parsed = raw === null ? null : OperationIndex.safeParse(raw);
      if (!parsed?.success) indexes.delete(key);
      return parsed?.success ? parsed.data : null;
    });
    if (indexes.size >= MAX_MEMO) indexes.delete(indexes.keys().next().value!);
    indexes.set(key, hit);
  }
  return hit;
}
