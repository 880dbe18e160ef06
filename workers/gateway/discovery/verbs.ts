import { stem } from "./tokenize";

/**
 * Action verbs by what they do, first word naming the group. A query's verb and a tool's verb
 * (the first verb of its name) meet when they share a group, and each verb also finds its group's
 * other words, somewhat below the word itself.
 */
const GROUPS = [
  "create make new add generate",
  "get fetch retrieve read show view obtain load",
  "list enumerate ls",
  "search find lookup query locate",
  "update edit modify change patch alter",
  "delete remove rm erase destroy purge",
  "store save set cache put persist write",
  "run execute exec invoke launch trigger",
  "start begin",
  "stop kill terminate halt cancel abort",
  "send post publish",
  "reply respond answer",
  "move rename mv",
  "copy duplicate clone",
  "navigate go visit open browse",
  "click press tap",
  "type enter fill input",
  "upload attach",
  "download",
  "install deploy",
  "merge combine",
  "capture take snap record",
];

const groupOf = new Map<string, string>();
for (const line of GROUPS) {
  const members = line.split(" ").map(stem);
  for (const member of members) if (!groupOf.has(member)) groupOf.set(member, members[0]!);
}

const membersOf = new Map<string, string[]>();
for (const [member, group] of groupOf) membersOf.set(group, [...(membersOf.get(group) ?? []), member]);

/** The verb group of a stemmed word, if it is an action verb. */
export function verbGroup(wordStem: string): string | undefined {
  return groupOf.get(wordStem);
}

/** The other stems of a stem's verb group. */
export function verbSynonyms(wordStem: string): string[] {
  const group = groupOf.get(wordStem);
  return group === undefined ? [] : (membersOf.get(group) ?? []).filter((s) => s !== wordStem);
}
