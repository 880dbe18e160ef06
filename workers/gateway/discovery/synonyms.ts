import { stem } from "./tokenize";
import { verbSynonyms } from "./verbs";

/**
 * Software words that name the same thing, so that a query in one finds a tool written in another.
 * Two-word names are first joined into one term (`pull request` → `pullrequest`), in tools and
 * queries alike.
 */
const GROUPS = [
  "directory folder dir",
  "repository repo",
  "pullrequest pr prs mergerequest mr",
  "kubernetes k8s kube kubectl",
  "database db",
  "postgres postgresql pg psql",
  "documentation docs doc",
  "configuration config settings preferences",
  "environment env",
  "user member account",
  "message msg",
  "image picture photo img",
  "screenshot screengrab screencap",
  "website site webpage",
  "url link",
  "javascript js",
  "typescript ts",
  "information info details metadata",
  "terminal shell",
  "command cmd",
  "process proc",
  "statistics stats metrics",
  "identifier id",
  "organization org",
  "application app",
  "function fn func",
  "variable var",
  "authentication auth login",
  "emoji reaction",
];

const PHRASES: [string, string][] = [
  ["pull request", "pullrequest"],
  ["merge request", "mergerequest"],
  ["file system", "filesystem"],
  ["look up", "lookup"],
  ["log in", "login"],
  ["sign in", "login"],
  ["web page", "webpage"],
  ["web site", "website"],
  ["screen shot", "screenshot"],
];

const synonymsOf = new Map<string, string[]>();
for (const line of GROUPS) {
  const members = line.split(" ").map(stem);
  for (const member of members) {
    const others = members.filter((m) => m !== member);
    synonymsOf.set(member, [...(synonymsOf.get(member) ?? []), ...others]);
  }
}

const phraseOf = new Map(
  PHRASES.map(([pair, joined]) => [pair.split(" ").map(stem).join(" "), stem(joined)]),
);

/** Other stems for the same thing: its synonyms and the other verbs of its verb group. */
export function synonyms(wordStem: string): string[] {
  return [...(synonymsOf.get(wordStem) ?? []), ...verbSynonyms(wordStem)];
}

/** The joined term of two adjacent stems that make a known two-word name, if they do. */
export function phrase(first: string, second: string): string | undefined {
  return phraseOf.get(`${first} ${second}`);
}
