import corpus from "../../bench/fixtures/mcp-tool-corpus.json";
import type { CatalogTool } from "../../shared/contract/tools";
import { rankCatalog } from "../../workers/gateway/discovery/search";
import { catalogTool } from "./catalog-tool";

/** Every package of bench/fixtures/mcp-tool-corpus.json. */
export const CORPUS_PACKAGES = corpus.servers.map((server) => server.package);

/** Servers' own definitions, as collected (bench/fixtures/mcp-tool-corpus.json), by package. */
export const corpusTools = (...packages: string[]): CatalogTool[] =>
  corpus.servers
    .filter((server) => packages.includes(server.package))
    .flatMap((server) =>
      server.tools.map((tool) => ({
        ...catalogTool(corpusName(server.package), tool.name, tool.description),
        inputSchema: tool.inputSchema,
      })),
    );

/** `@notionhq/notion-mcp-server` → notion, `@modelcontextprotocol/server-github` → github. */
const corpusName = (pkg: string) =>
  pkg.replace(/^@[^/]+\//, "").replace(/^(?:mcp-)?server-|-mcp(?:-server)?$/g, "");

/** The qualified name `search_tools` ranks first among `tools` for a query. */
export const firstOf = (tools: CatalogTool[]) => (query: string) =>
  rankCatalog(tools, { query })[0]?.qualifiedName;
