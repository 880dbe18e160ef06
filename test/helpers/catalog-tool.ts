import type { CatalogTool } from "../../shared/contract/tools";

/** A catalog tool with no parameters, for ranking tests. */
export function catalogTool(server: string, name: string, description: string, title?: string): CatalogTool {
  return {
    server,
    name,
    qualifiedName: `${server}.${name}`,
    description,
    inputSchema: { type: "object", properties: {} },
    ...(title ? { title } : {}),
  };
}
