import type { Query } from "./query";
import { SYNONYM } from "./query";
import { canonical } from "./synonyms";
import type { ToolDoc } from "./tool-doc";
import { verbGroups } from "./verbs";
import { STOPWORDS, stem, words } from "./words";

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
    add(canonical(stem(server.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ""))), server);
    const parts = words(server);
    if (parts.length < 2) continue;
    for (const part of parts.map((word) => canonical(stem(word)))) {
      if (part.length < 3 || STOPWORDS.has(part) || verbGroups(part).length > 0) continue;
      if (docs.some((doc) => doc.server !== server && doc.own.has(part))) continue;
      add(part, server);
    }
  }
  return keys;
}

/**
 * Servers the query names, by a term (or its synonym) or two adjacent words written as one, each with
 * the indexes of the concepts that name it. A word of an everyday phrase names a server only if the
 * phrase means something the server's tools are named for ("google maps" → directions; not "memory
 * leak" → heap snapshot, which the memory server has no tool for).
 */
export function mentionedServers(
  text: string,
  { concepts, everyday }: Pick<Query, "concepts" | "everyday">,
  keys: Map<string, string[]>,
  docs: ToolDoc[],
): Map<string, Set<number>> {
  const found = new Map<string, Set<number>>();
  const add = (server: string, concept: number) =>
    found.set(server, (found.get(server) ?? new Set()).add(concept));
  concepts.forEach((concept, c) => {
    for (const [s, weight] of concept.stems) {
      if (weight >= SYNONYM) for (const server of keys.get(s) ?? []) add(server, c);
    }
  });
  const all = words(text);
  for (let i = 0; i + 1 < all.length; i++) {
    for (const server of keys.get(canonical(stem(all[i]! + all[i + 1]!))) ?? []) {
      concepts.forEach((concept, c) => {
        if (concept.label === all[i] || concept.label === all[i + 1]) add(server, c);
      });
    }
  }
  for (const { said, means } of everyday.phrases(text)) {
    for (const [server, naming] of found) {
      const inPhrase = [...naming].filter((c) => said.includes(concepts[c]!.label));
      if (inPhrase.length === 0) continue;
      if (docs.some((doc) => doc.server === server && [...means].some((s) => doc.own.has(s)))) continue;
      for (const c of inPhrase) naming.delete(c);
      if (naming.size === 0) found.delete(server);
    }
  }
  return found;
}
