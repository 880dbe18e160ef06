import { PHRASES, SAME_WORD, SYNONYMS } from "./vocabulary";
import { stem } from "./words";

const canonicalOf = new Map<string, string>();
for (const line of SAME_WORD) {
  const [word, ...others] = line.split(" ").map(stem);
  for (const other of others) canonicalOf.set(other, word!);
}

/** A stem as the vocabulary writes it (`repo` → `repository`, `k8s` → `kubernetes`), else itself. */
export function canonical(wordStem: string): string {
  return canonicalOf.get(wordStem) ?? wordStem;
}

const synonymsOf = new Map<string, string[]>();
for (const line of SYNONYMS) {
  const members = line.split(" ").map((word) => canonical(stem(word)));
  for (const member of members) {
    const others = members.filter((m) => m !== member);
    synonymsOf.set(member, [...(synonymsOf.get(member) ?? []), ...others]);
  }
}

const phraseOf = new Map(
  PHRASES.map(([pair, joined]) => [pair.split(" ").map(stem).join(" "), canonical(stem(joined))]),
);

/** Other (canonical) stems for nearly the same thing. */
export function synonyms(wordStem: string): string[] {
  return synonymsOf.get(wordStem) ?? [];
}

const phraseStarts = new Set([...phraseOf.keys()].map((pair) => pair.split(" ")[0]!));

/** The joined term of two adjacent stems that make a known two-word name, if they do. */
export function phrase(first: string, second: string): string | undefined {
  return phraseStarts.has(first) ? phraseOf.get(`${first} ${second}`) : undefined;
}
