import type { CatalogTool } from "../../../shared/contract/tools";

/** `*` matches any run of characters (dots included): `github.*`, `*.delete_*`, `demo.list_tickets`. */
function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*");
  return new RegExp(`^${escaped}$`);
}

/** A team's allow/deny lists over qualified tool names: deny wins; no allow list allows all. */
export function toolPolicy(
  allow: string[] | undefined,
  deny: string[] | undefined,
): (qualifiedName: string) => boolean {
  const allowed = allow?.length ? allow.map(globToRegExp) : undefined;
  const denied = (deny ?? []).map(globToRegExp);
  return (name) => (!allowed || allowed.some((r) => r.test(name))) && !denied.some((r) => r.test(name));
}

export function visibleTools(
  tools: CatalogTool[],
  allows: (qualifiedName: string) => boolean,
): CatalogTool[] {
  return tools.filter((t) => allows(t.qualifiedName));
}
