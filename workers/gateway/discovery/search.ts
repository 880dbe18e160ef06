import type { CatalogTool } from "../../../shared/contract/tools";
import { type CatalogIndex, catalogIndex, type ServerInfo, type ToolDoc } from "./catalog-index";
import { parseQuery, type Query, SYNONYM } from "./query";
import { mentionedServers } from "./servers";
import { words } from "./tokenize";

export type { ServerInfo } from "./catalog-index";
export { closeMatches } from "./close-matches";

export interface SearchOptions {
  query?: string;
  server?: string;
  limit?: number;
  /** the catalog's servers: their names and descriptions are searched too */
  servers?: ServerInfo[];
}

export interface RankedTool {
  tool: CatalogTool;
  /** the query's words that this tool matched, directly or through a stem, synonym or prefix */
  matched: string[];
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** The query is a name of the tool / the tool name's words. */
const EXACT_NAME = 100;
const NAME_PHRASE = 40;
/** A tool matching some of the query's terms keeps at least this share of its score. */
const PARTIAL = 0.4;
/** Bonus share when the query's verb is the tool's, and when all of the tool's name is asked for. */
const SAME_VERB = 0.25;
const WHOLE_NAME = 0.3;
/** The tools of a server the query names: their score multiplied, plus a little. */
const NAMED_SERVER = 2;
const NAMED_SERVER_BASE = 0.5;

/**
 * Tools matching `query` (all tools when it is empty), best first, ties by qualified name; only tools of
 * `server` when given; at most `limit` (default 20, 1..100).
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

/** `rankCatalog` with the query words each tool matched. */
export function rankTools(tools: CatalogTool[], opts: Omit<SearchOptions, "limit">): RankedTool[] {
  const text = opts.query?.trim() ?? "";
  const inServer = (tool: CatalogTool) => opts.server === undefined || tool.server === opts.server;
  const index = catalogIndex(tools, opts.servers);
  const query = parseQuery(text, index.bm25.postings);
  if (query.concepts.length === 0) {
    return tools
      .filter(inServer)
      .sort(byName)
      .map((tool) => ({ tool, matched: [] }));
  }
  const scores = conceptScores(index, query);
  const named = mentionedServers(text, query.concepts, index.servers);
  const lower = text.toLowerCase();
  const phrase = words(text).join(" ");
  const hits: { tool: CatalogTool; score: number; matched: string[] }[] = [];
  index.docs.forEach((doc, d) => {
    if (!inServer(doc.tool)) return;
    const matched = query.concepts.filter((_, c) => scores[c]![d]! > 0).map((concept) => concept.label);
    const content = scores.reduce((sum, perDoc) => sum + perDoc[d]!, 0);
    let score = content * (PARTIAL + ((1 - PARTIAL) * matched.length) / query.concepts.length);
    score *=
      (query.verb !== undefined && query.verb === doc.verb ? 1 + SAME_VERB : 1) * nameBonus(doc, query);
    if (named.has(doc.tool.server)) score = score * NAMED_SERVER + NAMED_SERVER_BASE;
    if (doc.exact.has(lower)) score += EXACT_NAME;
    if (phrase === doc.phrase) score += NAME_PHRASE;
    if (score > 0) hits.push({ tool: doc.tool, score, matched });
  });
  return hits
    .sort((a, b) => b.score - a.score || byName(a.tool, b.tool))
    .map(({ tool, matched }) => ({ tool, matched }));
}

/** Per concept, per tool: the best score of its stems (a synonym counts once, not on top of the word). */
function conceptScores(index: CatalogIndex, query: Query): Float64Array[] {
  return query.concepts.map((concept) => {
    const best = new Float64Array(index.docs.length);
    for (const [s, weight] of concept.stems) {
      for (const { doc, score } of index.bm25.postings.get(s) ?? []) {
        best[doc] = Math.max(best[doc]!, weight * score);
      }
    }
    return best;
  });
}

/** 1 + WHOLE_NAME × the share of the tool name's stems that the query asks for (its object and verb). */
function nameBonus(doc: ToolDoc, query: Query): number {
  let asked = 0;
  for (const s of doc.name) {
    if (query.concepts.some((concept) => (concept.stems.get(s) ?? 0) >= SYNONYM)) asked++;
  }
  return 1 + (WHOLE_NAME * asked) / (doc.name.size || 1);
}

function byName(a: CatalogTool, b: CatalogTool): number {
  return a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0;
}
