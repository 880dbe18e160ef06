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
  const text = opts.query?.trim() ?? "";
  const inServer = (tool: CatalogTool) => opts.server === undefined || tool.server === opts.server;
  if (words(text).length === 0) {
    return tools
      .filter(inServer)
      .sort(byName)
      .map((tool) => ({ tool, matched: [], matchedAll: false, score: 0 }));
  }
  const index = catalogIndex(tools, opts.servers, opts.version);
  const query = parseQuery(text, index.bm25.postings);
  const named = mentionedServers(text, query, index.servers, index.docs);
  const { score, touched } = scorer(index, query, named);
  const lower = text.toLowerCase();
  const phrase = words(text).join(" ");
  const hits: (RankedTool & { d: number })[] = [];
  index.docs.forEach((doc, d) => {
    const tool = index.tools[d]!;
    if (!inServer(tool)) return;
    const exact = doc.exact.has(lower);
    const samePhrase = phrase === doc.phrase;
    // Only a tool having a stem of the query, of a server it names or named by it can score.
    if (touched[d] === 0 && !exact && !samePhrase && !named.has(doc.server)) return;
    const hit = score(doc, d);
    if (exact) hit.score += EXACT_NAME;
    if (samePhrase) hit.score += NAME_PHRASE;
    if (hit.score > 0) hits.push({ tool, d, ...hit, matchedAll: hit.matched.length === query.concepts.length });
  });
  const order = index.nameOrder;
  return hits
    .sort((a, b) => b.score - a.score || order[a.d]! - order[b.d]!)
    .map(({ d: _d, ...hit }) => hit);
}

function byName(a: CatalogTool, b: CatalogTool): number {
  return a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0;
}
