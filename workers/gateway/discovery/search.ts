import type { CatalogTool } from "../../../shared/contract/tools";
import { catalogIndex, type ServerInfo } from "./catalog-index";
import { parseQuery } from "./query";
import { scorer } from "./score";
import { mentionedServers } from "./servers";
import { words } from "./words";

export type { ServerInfo } from "./catalog-index";
export { closeMatches } from "./close-matches";

export interface SearchOptions {
  query?: string;
  server?: string;
  limit?: number;
  /** the catalog's servers: their names and descriptions are searched too */
  servers?: ServerInfo[];
  /** the catalog's version (Catalog.version): its index is found by it, without reading the tools */
  version?: string;
}

export interface RankedTool {
  tool: CatalogTool;
  /** the query's words this tool matched, directly or by stem, synonym, verb group or server name */
  matched: string[];
  /** it matched every word of the query (after stemming, synonyms, verb groups and server names) */
  matchedAll: boolean;
  score: number;
}

/** A short page: the agent reads it whole, and `total` says how many more there are. */
export const DEFAULT_LIMIT = 5;
export const MAX_LIMIT = 100;

/** The query is one of the tool's names (`github.get_issue`) / its name's words (`get issue`). */
const EXACT_NAME = 100;
const NAME_PHRASE = 40;

/**
 * Tools matching `query` (all tools when it is empty), best first, ties by qualified name; only tools of
 * `server` when given; at most `limit` (default 5, 1..100).
 */
export function searchCatalog(tools: CatalogTool[], opts: SearchOptions): CatalogTool[] {
  return rankCatalog(tools, opts).slice(0, clampLimit(opts.limit));
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

/** Every tool `searchCatalog` would return, in the same order, without the limit (for totals and paging). */
export function rankCatalog(tools: CatalogTool[], opts: Omit<SearchOptions, "limit">): CatalogTool[] {
  return rankTools(tools, opts).map((hit) => hit.tool);
}

/** `rankCatalog` with each tool's score and the query words it matched. */
export function rankTools(tools: CatalogTool[], opts: Omit<SearchOptions, "limit">): RankedTool[] {
  return topTools(tools, opts, Number.POSITIVE_INFINITY).top;
}

/** The first `limit` of `rankTools` and how many it has in all: only those are given their matched words. */
export function topTools(
  tools: CatalogTool[],
  opts: Omit<SearchOptions, "limit">,
  limit: number,
): { top: RankedTool[]; total: number } {
  const text = opts.query?.trim() ?? "";
  const inServer = (tool: CatalogTool) => opts.server === undefined || tool.server === opts.server;
  if (words(text).length === 0) {
    const all = tools.filter(inServer).sort(byName);
    const top = all.slice(0, limit).map((tool) => ({ tool, matched: [], matchedAll: false, score: 0 }));
    return { top, total: all.length };
  }
  const index = catalogIndex(tools, opts.servers, opts.version);
  const query = parseQuery(text, index.bm25.postings);
  const named = mentionedServers(text, query, index.servers, index.docs);
  const { score, bound, touched } = scorer(index, query, named);
  const lower = text.toLowerCase();
  const phrase = words(text).join(" ");
  // The query is a name of the tool, or its name's words.
  const bonuses = new Map<number, number>();
  for (const d of index.written.get(lower) ?? [])
    bonuses.set(d, index.docs[d]!.exact.has(lower) ? EXACT_NAME : 0);
  for (const d of index.written.get(phrase) ?? [])
    if (index.docs[d]!.phrase === phrase) bonuses.set(d, (bonuses.get(d) ?? 0) + NAME_PHRASE);
  const bonus = (d: number) => bonuses.get(d) ?? 0;
  // Each tool that can score (having a stem of the query, of a server it names or named by it), with
  // a bound of its score from its concepts alone (cheap) ...
  const candidates: number[] = [];
  const bounds = new Float64Array(index.docs.length);
  const seen = new Uint8Array(index.docs.length);
  const consider = (d: number) => {
    if (seen[d] === 1 || !inServer(index.tools[d]!)) return;
    seen[d] = 1;
    bounds[d] = bound(index.docs[d]!, d) + bonus(d);
    if (bounds[d]! > 0) candidates.push(d);
  };
  touched.forEach(consider);
  for (const server of named.keys()) index.byServer.get(server)?.forEach(consider);
  for (const d of bonuses.keys()) consider(d);
  // ... scored in full by decreasing bound, until a bound is below the last of the `limit` best.
  candidates.sort((a, b) => bounds[b]! - bounds[a]!);
  const order = index.nameOrder;
  const scores = new Float64Array(index.docs.length);
  const better = (a: number, b: number) => scores[b]! - scores[a]! || order[a]! - order[b]!;
  let best: number[] = [];
  if (limit >= candidates.length) {
    for (const d of candidates) scores[d] = score(index.docs[d]!, d) + bonus(d);
    best = candidates.sort(better);
  } else {
    for (const d of candidates) {
      if (best.length >= limit && bounds[d]! < scores[best.at(-1)!]!) break;
      scores[d] = score(index.docs[d]!, d) + bonus(d);
      let at = best.length;
      while (at > 0 && better(d, best[at - 1]!) < 0) at--;
      best.splice(at, 0, d);
      if (best.length > limit) best.pop();
    }
  }
  const top = best.map((d): RankedTool => {
    const matched: string[] = [];
    score(index.docs[d]!, d, matched);
    return {
      tool: index.tools[d]!,
      matched,
      matchedAll: matched.length === query.concepts.length,
      score: scores[d]!,
    };
  });
  return { top, total: candidates.length };
}

function byName(a: CatalogTool, b: CatalogTool): number {
  return a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0;
}
