import { stem } from "./words";

/**
 * Action verbs by what they do, first word naming the group; a word may be in several (`post` a
 * message, `post` a page as in HTTP; `open` an issue, a file, a URL). A query's first verb and a
 * tool's verbs (its name's, and its description's first words') agree when they share a group, and
 * each verb also finds its groups' other words, somewhat below the word itself.
 */
const GROUPS = [
  "create make new add generate produce append insert build init initialize setup post open write leave draft compose jot raise",
  "get fetch retrieve read show view obtain load pull grab check inspect see display print download export open summarize summarise dump",
  "list enumerate ls show view display",
  "search find lookup query locate discover grep resolve scan hunt",
  "update edit modify change patch alter replace upgrade bump adjust tweak revise set close reopen resolve assign reassign mark escalate prioritize flag label tag rename raise increase decrease lower reduce extend",
  "delete remove rm erase destroy purge clear wipe trash archive forget uninstall drop nuke scrap",
  "store save set cache put persist write record keep",
  "run execute exec invoke launch trigger perform evaluate eval start",
  "start begin kickoff",
  "stop kill terminate halt cancel abort shutdown end",
  "send post publish notify tell announce share broadcast submit",
  "reply respond answer",
  "move mv transfer",
  "copy duplicate clone fork",
  "navigate go visit browse open",
  "click press tap tick untick",
  "type enter fill input",
  "upload attach",
  "install deploy",
  "merge combine",
  "capture take snap record grab",
  "toggle enable disable turn switch",
  "restore recover revert undo rollback",
  "pause suspend",
  "resume unpause continue",
  "analyze analyse audit",
  "close quit exit",
  "push commit",
  "restart reboot",
  "verify validate",
  "monitor watch track",
  "select choose pick",
];

/** Groups that only look; a tool that looks does not contradict another that looks. */
const LOOKING = new Set(["get", "list", "search"]);
/** The verb of a question: it asks to look, in any of the looking groups. */
export const LOOK = "?";

/** A verb may be in two groups (`post` a message, `post` a page as in HTTP). */
const groupsOf = new Map<string, string[]>();
const membersOf = new Map<string, string[]>();
for (const line of GROUPS) {
  const members = line.split(" ").map(stem);
  const group = members[0]!;
  membersOf.set(group, members);
  for (const member of members) groupsOf.set(member, [...(groupsOf.get(member) ?? []), group]);
}

/** The verb groups of a stemmed word; none if it is not an action verb. */
export function verbGroups(wordStem: string): string[] {
  return groupsOf.get(wordStem) ?? [];
}

/** The other stems of a stem's verb groups. */
export function verbSynonyms(wordStem: string): string[] {
  const all = verbGroups(wordStem).flatMap((group) => membersOf.get(group) ?? []);
  return [...new Set(all)].filter((s) => s !== wordStem);
}

/** Whether a query with verb groups `query` asks for a tool verb in `group`. */
export function asks(query: string[], group: string): boolean {
  return query.includes(group) || (query.includes(LOOK) && LOOKING.has(group));
}

/** How a query's verb groups and a tool's agree: same group, both looking, or differing. */
export function verbAgreement(query: string[], tool: Set<string>): "same" | "looking" | "other" | undefined {
  if (query.length === 0 || tool.size === 0) return undefined;
  if ([...tool].some((group) => asks(query, group))) return "same";
  const looking = query.some((group) => LOOKING.has(group)) && [...tool].some((group) => LOOKING.has(group));
  return looking ? "looking" : "other";
}
