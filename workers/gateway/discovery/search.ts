import { type CatalogTool, jsIdentifier } from "../../../shared/contract/tools";
import { stem, tokenize, words } from "./tokenize";

export { closeMatches } from "./close-matches";

export interface SearchOptions {
  query?: string;
  server?: string;
  limit?: number;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const EXACT_NAME = 100;
const NAME_PHRASE = 40;
const ALL_TERMS = 6;
const SAME_WORD = 1;
const WEIGHTS = {
  name: { exact: 10, prefix: 6 },
  server: { exact: 4, prefix: 2 },
  title: { exact: 4, prefix: 2 },
  description: { exact: 2, prefix: 1 },
} as const;
type Field = keyof typeof WEIGHTS;

interface Indexed {
  tool: CatalogTool;
  fields: Record<Field, Set<string>>;
  /** The tool name's words, in order (`list_issues` → `list issues`). */
  phrase: string;
  /** The tool name's words as written, unstemmed: an exact word beats a stem match a little. */
  nameWords: Set<string>;
  exact: Set<string>;
}

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
  const pool = opts.server === undefined ? tools : tools.filter((tool) => tool.server === opts.server);
  const query = opts.query?.trim() ?? "";
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return [...pool].sort(byName);
  const index = pool.map(indexTool);
  const idf = inverseFrequencies(index);
  const phrase = words(query).join(" ");
  return index
    .map((entry) => ({ tool: entry.tool, score: score(entry, query.toLowerCase(), phrase, terms, idf) }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || byName(a.tool, b.tool))
    .map((hit) => hit.tool);
}

function byName(a: CatalogTool, b: CatalogTool): number {
  return a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0;
}

function stems(text: string | undefined): Set<string> {
  return new Set(text ? tokenize(text).map(stem) : []);
}

function indexTool(tool: CatalogTool): Indexed {
  const js = jsIdentifier(tool.name);
  const exact = [tool.qualifiedName, tool.name, js, `${tool.server}.${js}`, `tools.${tool.server}.${js}`];
  return {
    tool,
    fields: {
      name: stems(tool.name),
      server: stems(tool.server),
      title: stems(tool.title),
      description: stems(tool.description),
    },
    phrase: words(tool.name).join(" "),
    nameWords: new Set(words(tool.name)),
    exact: new Set(exact.map((name) => name.toLowerCase())),
  };
}

/** Per stem: ln(1 + N/df) / ln(1 + N), so a stem in every tool weighs least and a rare one 1. */
function inverseFrequencies(index: Indexed[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const entry of index) {
    const seen = new Set(Object.values(entry.fields).flatMap((set) => [...set]));
    for (const s of seen) df.set(s, (df.get(s) ?? 0) + 1);
  }
  const n = index.length;
  const idf = new Map<string, number>();
  for (const [s, count] of df) idf.set(s, Math.log(1 + n / count) / Math.log(1 + n));
  return idf;
}

function fieldMatch(field: Set<string>, term: string, termStem: string): "exact" | "prefix" | undefined {
  if (field.has(termStem)) return "exact";
  if (term.length < 3) return undefined;
  for (const s of field) if (s.startsWith(termStem)) return "prefix";
  return undefined;
}

function termScore(entry: Indexed, term: string, idf: Map<string, number>): number {
  const termStem = stem(term);
  let total = 0;
  for (const field of Object.keys(WEIGHTS) as Field[]) {
    const match = fieldMatch(entry.fields[field], term, termStem);
    if (!match) continue;
    const rarity = idf.get(termStem) ?? 1;
    const weight = field === "description" ? rarity : 0.5 + 0.5 * rarity;
    total += WEIGHTS[field][match] * weight;
  }
  return total;
}

function score(
  entry: Indexed,
  query: string,
  phrase: string,
  terms: string[],
  idf: Map<string, number>,
): number {
  let total = entry.exact.has(query) ? EXACT_NAME : 0;
  if (phrase === entry.phrase) total += NAME_PHRASE;
  let matched = 0;
  for (const term of terms) {
    const s = termScore(entry, term, idf);
    if (s > 0) matched++;
    total += s + (entry.nameWords.has(term) ? SAME_WORD : 0);
  }
  if (terms.length > 1 && matched === terms.length) total += ALL_TERMS;
  return total;
}
