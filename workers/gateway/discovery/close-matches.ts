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
 * transpositions), computed only in the band |i - j| ≤ max: the exact distance when it is at most
 * `max`, else `max + 1`. O(length × max) instead of O(length²) — names come from agent code.
 */
export function editDistance(a: string, b: string, max = Math.max(a.length, b.length)): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const over = max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => (j <= max ? j : over));
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(b.length + 1).fill(over);
    if (i <= max) current[0] = i;
    let rowMin = current[0]!;
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      current[j] = Math.min(d, over);
      rowMin = Math.min(rowMin, current[j]!);
    }
    if (rowMin > max) return over;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, over);
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
  const distance = Math.min(
    editDistance(wanted, qualified, allowed),
    editDistance(wantedTool, bare, allowed) + serverPenalty,
  );
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
