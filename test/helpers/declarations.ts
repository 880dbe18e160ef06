import { parse } from "acorn";
import { transform } from "sucrase";
import type { CatalogTool, JsonSchema } from "../../shared/contract/tools";

/** A catalog tool on server `demo` unless told otherwise. */
export function tool(over: Partial<CatalogTool> & { name: string; inputSchema: JsonSchema }): CatalogTool {
  const server = over.server ?? "demo";
  return { server, qualifiedName: `${server}.${over.name}`, ...over };
}

/** Strips the TypeScript with sucrase and parses what is left with acorn: throws on invalid syntax. */
export function assertValidTs(code: string): void {
  const js = transform(`${code}\nexport {};\n`, { transforms: ["typescript"] }).code;
  parse(js, { ecmaVersion: "latest", sourceType: "module" });
}
