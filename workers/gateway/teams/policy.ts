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

/** A team's allow/deny lists over qualified tool names: deny wins; no allow list allows all. */
export function toolPolicy(
  allow: string[] | undefined,
  deny: string[] | undefined,
): (qualifiedName: string) => boolean {
  const allowed = allow?.length ? allow.map(globMatcher) : undefined;
  const denied = (deny ?? []).map(globMatcher);
  return (name) => (!allowed || allowed.some((m) => m(name))) && !denied.some((m) => m(name));
}

export function visibleTools(
  tools: CatalogTool[],
  allows: (qualifiedName: string) => boolean,
): CatalogTool[] {
  return tools.filter((t) => allows(t.qualifiedName));
}
