import type { ToolDoc } from "./catalog-index";
import type { Concept } from "./query";
import { SYNONYM } from "./query";
import { STOPWORDS, stem, words } from "./tokenize";
import { verbGroup } from "./verbs";

/**
 * The stems that name each server: its whole name (`google-maps` → `googlemaps`) and each word of a
 * longer name that is not an action verb and no other server's tool has in its name (`google`,
 * `devtools`; not `search` of `brave-search`, nor `maps` when another server has `*_map` tools).
 */
export function serverKeys(names: string[], docs: ToolDoc[]): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  const add = (key: string, server: string) => {
    const list = keys.get(key) ?? [];
    if (!list.includes(server)) keys.set(key, [...list, server]);
  };
  for (const server of names) {
    add(stem(server.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")), server);
    const parts = words(server);
    if (parts.length < 2) continue;
    for (const part of parts.map(stem)) {
      if (part.length < 3 || STOPWORDS.has(part) || verbGroup(part)) continue;
      if (docs.some((doc) => doc.tool.server !== server && doc.name.has(part))) continue;
      add(part, server);
    }
  }
  return keys;
}

/** Servers the query names, by a term (or its synonym) or two adjacent words written as one. */
export function mentionedServers(
  text: string,
  concepts: Concept[],
  keys: Map<string, string[]>,
): Set<string> {
  const found = new Set<string>();
  for (const concept of concepts) {
    for (const [s, weight] of concept.stems) {
      if (weight >= SYNONYM) for (const server of keys.get(s) ?? []) found.add(server);
    }
  }
  const all = words(text);
  for (let i = 0; i + 1 < all.length; i++) {
    for (const server of keys.get(stem(all[i]! + all[i + 1]!)) ?? []) found.add(server);
  }
  return found;
}
