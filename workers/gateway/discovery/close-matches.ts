import type { CatalogTool } from "../../../shared/contract/tools";

const MAX_LENGTH = 120;
/** What the agent asked for is cut to this before it is compared with every tool. */
const MAX_WANTED = 64;

/** Lowercase, `-` and `_` alike, without a leading `tools.`. */
function normalize(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replaceAll("-", "_")
    .replace(/^tools\./, "")
    .slice(0, MAX_LENGTH);
}

/**
 * Optimal string alignment distance (insertions, deletions, substitutions, adjacent
 * transpositions), computed only in the band |i - j| ≤ limit: the exact distance when it is at most
 * `limit`, else `limit + 1`. O(length × limit) instead of O(length²): names come from agent code.
 */
export function editDistance(a: string, b: string, limit = Math.max(a.length, b.length)): number {
  if (a === b) return 0;
  const max = Math.min(limit, Math.max(a.length, b.length));
  const over = max + 1;
  if (Math.abs(a.length - b.length) > max || surplus(a, b) > max) return limit + 1;
  // Three rows reused in turn; a row's cells just outside its band are set to `over`, the only
  // cells outside the band the next rows read.
  let before = new Int32Array(b.length + 1).fill(over);
  let previous = new Int32Array(b.length + 1).fill(over);
  let current = new Int32Array(b.length + 1).fill(over);
  for (let j = 0; j <= Math.min(b.length, max); j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    const ai = a.charCodeAt(i - 1);
    const aBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    current[from - 1] = from === 1 && i <= max ? i : over;
    if (to < b.length) current[to + 1] = over;
    let rowMin = current[from - 1]!;
    for (let j = from; j <= to; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = previous[j - 1]! + (ai === bj ? 0 : 1);
      const deletion = previous[j]! + 1;
      const insertion = current[j - 1]! + 1;
      if (deletion < d) d = deletion;
      if (insertion < d) d = insertion;
      if (aBefore === bj && j > 1 && ai === b.charCodeAt(j - 2) && before[j - 2]! + 1 < d)
        d = before[j - 2]! + 1;
      if (d > over) d = over;
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]! > max ? limit + 1 : previous[b.length]!;
}

/**
 * A lower bound of the edit distance, in linear time: each edit removes at most one of the
 * characters `a` has more of than `b`, and adds at most one of those `b` has more of. Characters
 * are counted by their low 7 bits, which can only lower the bound.
 */
function surplus(a: string, b: string): number {
  const counts = new Int32Array(128);
  for (let i = 0; i < a.length; i++) counts[a.charCodeAt(i) & 127]! += 1;
  for (let i = 0; i < b.length; i++) counts[b.charCodeAt(i) & 127]! -= 1;
  let more = 0;
  let fewer = 0;
  for (const count of counts) {
    if (count > 0) more += count;
    else fewer -= count;
  }
  return Math.max(more, fewer);
}

/** How far `wanted` is from a tool, or undefined when it is not close. Lower is closer. */
function closeness(wanted: string, tool: CatalogTool): number | undefined {
  const qualified = normalize(tool.qualifiedName);
  const bare = normalize(tool.name);
  const server = tool.server.toLowerCase();
  const dot = wanted.indexOf(".");
  const wantedServer = dot < 0 ? undefined : wanted.slice(0, dot);
  const wantedTool = dot < 0 ? wanted : wanted.slice(dot + 1);
  const serverPenalty = wantedServer === undefined || wantedServer === server.replaceAll("-", "_") ? 0 : 1;
  const allowed = Math.max(2, Math.floor(Math.min(wantedTool.length, bare.length) / 3));
  const byTool = editDistance(wantedTool, bare, allowed) + serverPenalty;
  // The qualified name only matters if it is closer, which bounds its search tighter.
  const bound = Math.min(allowed, byTool - 1);
  const distance = bound < 0 ? byTool : Math.min(byTool, editDistance(wanted, qualified, bound));
  if (distance <= allowed) return distance;
  const contained =
    (wantedTool.length >= 3 && bare.includes(wantedTool)) || (bare.length >= 3 && wantedTool.includes(bare));
  return contained ? allowed + 1 + serverPenalty : undefined;
}

/**
 * For "unknown tool" errors: up to `max` qualified names close to `name` (a typo of the qualified or the
 * bare tool name, the wrong server, `-` for `_`, or one name containing the other), best first.
 */
export function closeMatches(name: string, tools: CatalogTool[], max = 3): string[] {
  const wanted = normalize(name.slice(0, MAX_LENGTH * 2)).slice(0, MAX_WANTED);
  if (wanted === "" || max <= 0) return [];
  const gap = (qualified: string) => Math.abs(normalize(qualified).length - wanted.length);
  return tools
    .map((tool) => ({ name: tool.qualifiedName, distance: closeness(wanted, tool) }))
    .filter((hit): hit is { name: string; distance: number } => hit.distance !== undefined)
    .sort(
      (a, b) =>
        a.distance - b.distance ||
        gap(a.name) - gap(b.name) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    )
    .slice(0, max)
    .map((hit) => hit.name);
}
