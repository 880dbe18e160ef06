import type { CatalogTool } from "../../../shared/contract/tools";

/**
 * A glob over qualified names, `*` matching any run of characters (dots included): `github.*`,
 * `*.delete_*`, `demo.list_tickets`. Matched without a regex: the literal parts between stars must
 * appear in order, the first at the start and the last at the end unless a star stands there.
 * Leftmost placement of each part is enough for `*`-only globs, so the work is linear in the name
 * per part whatever the glob (a backtracking regex of many stars is exponential).
 */
export function globMatcher(glob: string): (name: string) => boolean {
  const parts = glob.split("*");
  const head = parts[0] ?? "";
  if (parts.length === 1) return (name) => name === head;
  const tail = parts[parts.length - 1] ?? "";
  const middle = parts.slice(1, -1).filter((p) => p !== "");
  return (name) => {
    if (name.length < head.length + tail.length || !name.startsWith(head) || !name.endsWith(tail))
      return false;
    let at = head.length;
    const end = name.length - tail.length;
    for (const part of middle) {
      const found = name.indexOf(part, at);
      if (found < 0 || found + part.length > end) return false;
      at = found + part.length;
    }
    return true;
  };
}

/** A glob as a refusal names it: quoted, at most this many characters. */
const RULE_GLOB_CHARS = 40;
/** The allow globs a refusal lists, at most. */
const RULE_ALLOW_GLOBS = 3;

const quoted = (glob: string) =>
  JSON.stringify(glob.length <= RULE_GLOB_CHARS ? glob : `${glob.slice(0, RULE_GLOB_CHARS - 1)}…`);

/**
 * A team's allow/deny lists over qualified tool names, as the rule that refuses a name: the first
 * deny glob that matches it (`deny "demo.update_*"`), else, when there is an allow list and no glob
 * of it matches, that list (`not in allow "demo.list_*", "demo.get_*"`); undefined when allowed.
 * Deny wins; no allow list allows all. At most 160 characters.
 */
export function policyRefusal(
  allow: string[] | undefined,
  deny: string[] | undefined,
): (qualifiedName: string) => string | undefined {
  const allowed = allow?.length ? allow.map(globMatcher) : undefined;
  const denied = (deny ?? []).map((glob) => ({ glob, matches: globMatcher(glob) }));
  const allowRule = allow?.length
    ? `not in allow ${allow.slice(0, RULE_ALLOW_GLOBS).map(quoted).join(", ")}${allow.length > RULE_ALLOW_GLOBS ? ` (+${allow.length - RULE_ALLOW_GLOBS} more)` : ""}`
    : "";
  return (name) => {
    const deniedBy = denied.find((d) => d.matches(name));
    if (deniedBy) return `deny ${quoted(deniedBy.glob)}`;
    if (allowed && !allowed.some((m) => m(name))) return allowRule;
    return undefined;
  };
}

/** A team's allow/deny lists as a yes/no over qualified names (policyRefusal's answer, without the rule). */
export function toolPolicy(
  allow: string[] | undefined,
  deny: string[] | undefined,
): (qualifiedName: string) => boolean {
  const refusal = policyRefusal(allow, deny);
  return (name) => refusal(name) === undefined;
}

/** A tool the team's lists remove, kept by name (no schema) so a call to it can say which rule. */
export interface NotAllowedTool {
  server: string;
  name: string;
  qualifiedName: string;
  /** the rule, as policyRefusal words it */
  rule: string;
}

/** The tools a team may see, and the names (with the rule) of those its lists remove. */
export function applyPolicy(
  tools: CatalogTool[],
  refusal: (qualifiedName: string) => string | undefined,
): { visible: CatalogTool[]; notAllowed: NotAllowedTool[] } {
  const visible: CatalogTool[] = [];
  const notAllowed: NotAllowedTool[] = [];
  for (const tool of tools) {
    const rule = refusal(tool.qualifiedName);
    if (rule === undefined) visible.push(tool);
    else notAllowed.push({ server: tool.server, name: tool.name, qualifiedName: tool.qualifiedName, rule });
  }
  return { visible, notAllowed };
}
