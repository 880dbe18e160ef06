import type { CatalogTool } from "../../../shared/contract/tools";
import { sha256 } from "../../../shared/hash";
import { fetchOperationTools, type OperationIndex, readIndex } from "../openapi/index-store";
import type { NotAllowedTool } from "../teams/policy";
import type { Span } from "../tracing/trace";
import { type CacheEntry, cacheKey, readEntry, writeEntry } from "./cache";
import type { UpstreamServer } from "./config";
import {
  asCaller,
  CredentialsMissing,
  isPerUser,
  missingCredentials,
  type UpstreamCaller,
} from "./credentials";
import { describeFailure, fetchTools } from "./fetch-tools";
import type { LeftOutTool } from "./tool-list";

export interface ServerState {
  name: string;
  /** ok: fresh list; stale: older than the TTL or its last refresh failed; failing: no list at all */
  state: "ok" | "stale" | "failing";
  tools: number;
  ageSeconds?: number;
  error?: string;
  description?: string;
  /** tools it lists that the catalog leaves out (malformed, nested too deep), and why */
  leftOut?: LeftOutTool[];
  /**
   * a per-user server the caller cannot reach yet: its tools are the list a member of the team last
   * saw, and a call asks the caller to connect (or to set the named secret)
   */
  needs?: { connection: "authorization-required" | "expired" | "unavailable" } | { secret: string };
}

export interface Catalog {
  tools: CatalogTool[];
  servers: ServerState[];
  /** configuration problems (`MCP_SERVERS.<server>.<field>: …`) of servers left out */
  problems?: string[];
  /**
   * Tools the servers list but the team's allow/deny lists remove: names and rule only, never shown
   * or searched; a call or definition request for one says which rule refuses it.
   */
  notAllowed?: NotAllowedTool[];
  /**
   * What its tools are: the same version, the same tools in the same order (the team, each server's
   * config and tool-list version, then what upstreamsFor and withSkills change); discovery's index is
   * found by it
   */
  version?: string;
  /** an OpenAPI server's operation index (how each of its tools is called), by server name */
  operations?: (server: string) => Promise<OperationIndex | null>;
}

export interface CatalogDeps {
  kv: KVNamespace;
  /** whose cache entries these are */
  team: string;
  servers: UpstreamServer[];
  /** the user whose own lists per-user servers give (none: the list a member last saw) */
  caller?: UpstreamCaller | undefined;
  ttlSeconds: number;
  timeoutMs: number;
  waitUntil(promise: Promise<unknown>): void;
  /** the request's span: a tools/list an upstream is asked for is a span under it */
  span?: Span | undefined;
}

/** Refresh this long before expiry, in the background. */
const REFRESH_AT = 0.8;
/** After a failed attempt, wait this long before blocking a request on the upstream again. */
const RETRY_AFTER_MS = 30_000;
/** Per-isolate state: the catalog entries this isolate is refreshing in the background. */
const refreshing = new Set<string>();

/**
 * Every upstream's tools, from the KV cache: all servers at once, each bounded by its own timeout,
 * so a slow or dead upstream only marks itself failing. Lists nearing expiry are refreshed with
 * waitUntil; a failed refresh keeps the old list, marked stale.
 */
export async function loadCatalog(deps: CatalogDeps): Promise<Catalog> {
  const states = await Promise.all(deps.servers.map((server) => serverTools(deps, server)));
  const tools: CatalogTool[] = [];
  const indexes = new Map<string, string>();
  const versions = [deps.team];
  states.forEach(({ entry }, i) => {
    const { name: server, configHash } = deps.servers[i]!;
    for (const tool of entry?.tools ?? [])
      tools.push({ ...tool, server, qualifiedName: `${server}.${tool.name}` });
    if (entry?.openapi) indexes.set(server, entry.openapi.index);
    // A list cached before list versions: the time it was fetched, until its next refresh names it.
    versions.push(
      `${server}:${configHash.slice(0, 16)}:${entry?.listVersion ?? `at${entry?.fetchedAt ?? 0}`}`,
    );
  });
  const operations = async (server: string) => {
    const key = indexes.get(server);
    return key ? readIndex(deps.kv, key) : null;
  };
  return {
    tools,
    servers: states.map((s) => s.state),
    version: versions.join(" "),
    ...(indexes.size ? { operations } : {}),
  };
}

/** `entry` with its list version: kept when its tools are the ones `old` named, else their SHA-256. */
async function versioned(entry: CacheEntry, old: CacheEntry | null): Promise<CacheEntry> {
  if (old?.listVersion && entry.tools === old.tools) return { ...entry, listVersion: old.listVersion };
  return { ...entry, listVersion: await sha256(JSON.stringify(entry.tools)) };
}

async function serverTools(
  deps: CatalogDeps,
  server: UpstreamServer,
): Promise<{ entry: CacheEntry | null; state: ServerState }> {
  const key = cacheKey(deps.team, server.name, server.configHash);
  if (!isPerUser(server)) return cachedTools(deps, server, key);
  // A per-user server: the list a member last saw (public lists are everyone's), else the caller's own.
  const seen = await readEntry(deps.kv, key);
  if (seen?.public) return cachedTools(deps, server, key);
  const needs = (missing: CredentialsMissing): { entry: CacheEntry | null; state: ServerState } => ({
    entry: seen,
    state: {
      ...stateOf(server, seen, Date.now(), deps.ttlSeconds * 1000),
      needs:
        missing.reason === "secret-missing"
          ? { secret: missing.secret ?? "?" }
          : { connection: missing.reason },
    },
  });
  if (!deps.caller) return needs(new CredentialsMissing(server.name, "authorization-required"));
  let own: { entry: CacheEntry | null; state: ServerState };
  try {
    const view = await asCaller(deps.caller, server);
    own = await cachedTools(deps, view, `${key}:u:${"userScope" in view ? view.userScope : ""}`);
  } catch (err) {
    const missing = missingCredentials(err);
    if (missing) return needs(missing);
    throw err;
  }
  if (own.entry && own.entry.fetchedAt > (seen?.fetchedAt ?? 0)) {
    // What this member saw becomes the team's list for members not connected yet (and public ones for
    // all), when it is newer: two members' lists never take turns rewriting it on every request.
    deps.waitUntil(writeEntry(deps.kv, key, own.entry, deps.ttlSeconds));
  }
  return own;
}

async function cachedTools(
  deps: CatalogDeps,
  server: UpstreamServer,
  key: string,
): Promise<{ entry: CacheEntry | null; state: ServerState }> {
  const now = Date.now();
  let entry = await readEntry(deps.kv, key);
  const ttlMs = deps.ttlSeconds * 1000;
  const hasList = entry !== null && entry.fetchedAt > 0;

  if (hasList && entry) {
    const age = now - entry.fetchedAt;
    const retryDue = !entry.lastAttemptAt || now - entry.lastAttemptAt > RETRY_AFTER_MS;
    if (age > ttlMs * REFRESH_AT && retryDue && !refreshing.has(key)) {
      refreshing.add(key);
      deps.waitUntil(
        refresh(deps, server, key, entry)
          .catch(() => {}) // missing credentials: the next call in the foreground says so
          .finally(() => refreshing.delete(key)),
      );
    }
  } else if (!entry?.lastAttemptAt || now - entry.lastAttemptAt > RETRY_AFTER_MS) {
    entry = await refresh(deps, server, key, entry);
  }
  return { entry, state: stateOf(server, entry, now, ttlMs) };
}

async function refresh(
  deps: CatalogDeps,
  server: UpstreamServer,
  key: string,
  old: CacheEntry | null,
): Promise<CacheEntry> {
  let next: CacheEntry;
  try {
    next = await versioned(
      server.openapi
        ? await fetchOperationTools(deps, server, deps.timeoutMs, old)
        : await fetchTools(server, deps.timeoutMs, deps.span),
      old,
    );
  } catch (err) {
    // The caller lacks a connection or secret: nothing is wrong with the server, so nothing is kept.
    if (missingCredentials(err)) throw err;
    next = {
      ...(old ?? { fetchedAt: 0, tools: [] }),
      lastError: describeFailure(err),
      lastAttemptAt: Date.now(),
    };
  }
  await writeEntry(deps.kv, key, next, deps.ttlSeconds);
  return next;
}

function stateOf(server: UpstreamServer, entry: CacheEntry | null, now: number, ttlMs: number): ServerState {
  const base = { name: server.name, ...(server.description ? { description: server.description } : {}) };
  if (!entry || entry.fetchedAt === 0) {
    return { ...base, state: "failing", tools: 0, error: entry?.lastError ?? "not fetched yet" };
  }
  const age = now - entry.fetchedAt;
  const stale = age > ttlMs || entry.lastError !== undefined;
  return {
    ...base,
    state: stale ? "stale" : "ok",
    tools: entry.tools.length,
    ageSeconds: Math.round(age / 1000),
    ...(entry.lastError ? { error: `refresh failed: ${entry.lastError}` } : {}),
    ...(entry.leftOut?.length ? { leftOut: entry.leftOut } : {}),
  };
}
