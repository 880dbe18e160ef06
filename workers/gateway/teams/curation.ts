import type { CatalogTool } from "../../../shared/contract/tools";
import type { TeamRecord } from "./schema";

/**
 * The catalog's tools as the team curated them: renamed (the upstream's own name kept in
 * `upstreamName`, for the call) and/or described anew. A rename onto a name another tool of the
 * server has is not applied, and said in a problem naming the field.
 */
export function curateTools(
  tools: CatalogTool[],
  curation: TeamRecord["tools"],
): { tools: CatalogTool[]; problems: string[] } {
  if (!curation || Object.keys(curation).length === 0) return { tools, problems: [] };
  const problems: string[] = [];
  const taken = new Set(tools.map((t) => t.qualifiedName));
  const out = tools.map((tool) => {
    const own = curation[tool.qualifiedName];
    if (!own) return tool;
    const curated: CatalogTool = own.description ? { ...tool, description: own.description } : { ...tool };
    if (own.name && own.name !== tool.name) {
      const qualifiedName = `${tool.server}.${own.name}`;
      if (taken.has(qualifiedName)) {
        problems.push(`tools.${tool.qualifiedName}.name: ${qualifiedName} is already a tool; not renamed`);
      } else {
        taken.add(qualifiedName);
        Object.assign(curated, { name: own.name, qualifiedName, upstreamName: tool.name });
      }
    }
    return curated;
  });
  return { tools: out, problems };
}
