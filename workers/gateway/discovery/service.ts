import type { DetailLevel } from "../../../shared/contract/tools";
import { findTool } from "../bridge/call-tool";
import type { SearchInput } from "../bridge/discovery-io";
import type { Catalog } from "../upstreams";
import { type RankedTool, rankTools } from "./search";
import { firstSentence } from "./sentence";
import { callSignature, toolDeclaration } from "./typescript";

export interface ToolEntry {
  name: string;
  title?: string;
  description?: string;
  signature?: string;
  /** the query's words this tool matched (after stemming, synonyms and verb groups) */
  matched?: string[];
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

export interface SearchResult {
  tools: ToolEntry[];
  /** matches before `limit` */
  total: number;
  /** servers whose list is stale or missing, and why */
  warnings?: string[];
}

export interface ToolDefinition {
  name: string;
  server: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  typescript: string;
  warnings?: string[];
}

const SUMMARY_CHARS = 200;
/** At most this many matched words per tool entry. */
const MAX_MATCHED = 8;

/** `search_tools`, `GET /v1/tools` and in-code `searchTools`: one implementation. */
export function searchTools(catalog: Catalog, input: SearchInput): SearchResult {
  const detail: DetailLevel = input.detail ?? "summary";
  const warnings = [...catalogWarnings(catalog), ...(catalog.problems ?? [])];
  if (input.server && !catalog.servers.some((s) => s.name === input.server)) {
    warnings.push(
      `unknown server "${input.server}"; servers: ${catalog.servers.map((s) => s.name).join(", ") || "none"}`,
    );
  }
  const all = rankTools(catalog.tools, {
    query: input.query,
    server: input.server,
    servers: catalog.servers,
  });
  const limit = input.limit ?? 20;
  return {
    tools: all.slice(0, limit).map((hit) => entry(hit, detail)),
    total: all.length,
    ...(warnings.length ? { warnings } : {}),
  };
}

/** `get_tool_definition`, `GET /v1/tools/{name}` and in-code `getToolDefinition`. Throws ToolCallError. */
export function toolDefinition(catalog: Catalog, name: string): ToolDefinition {
  const tool = findTool(catalog, name);
  const warnings = catalogWarnings(catalog).filter((w) => w.startsWith(`${tool.server}:`));
  return {
    name: tool.qualifiedName,
    server: tool.server,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    typescript: toolDeclaration(tool),
    ...(warnings.length ? { warnings } : {}),
  };
}

function entry({ tool, matched }: RankedTool, detail: DetailLevel): ToolEntry {
  if (detail === "name") return { name: tool.qualifiedName };
  const summary: ToolEntry = {
    name: tool.qualifiedName,
    ...(tool.description ? { description: firstSentence(tool.description, SUMMARY_CHARS) } : {}),
    signature: callSignature(tool),
    ...(matched.length > 0 ? { matched: matched.slice(0, MAX_MATCHED) } : {}),
  };
  if (detail === "summary") return summary;
  return {
    ...summary,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
}

function catalogWarnings(catalog: Catalog): string[] {
  return catalog.servers
    .filter((s) => s.state !== "ok")
    .map((s) =>
      s.state === "stale"
        ? `${s.name}: tool list is stale (${s.ageSeconds ?? "?"} s old${s.error ? `; ${s.error}` : ""})`
        : `${s.name}: unavailable (${s.error ?? "no tool list"})`,
    );
}
