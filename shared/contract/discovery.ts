import { z } from "zod";
import type { SkillLanguage } from "./skills";
import { DETAIL_LEVELS } from "./tools";

/** At `summary` detail, the first this many entries of a page carry their TypeScript signature. */
export const SIGNED_ENTRIES = 3;

/** `search_tools` input: the MCP tool, `GET /v1/tools` and in-code `searchTools` share it. */
export const searchInputShape = {
  query: z
    .string()
    .max(500)
    .optional()
    .describe("Words to look for in tool names and descriptions; empty lists tools."),
  server: z.string().max(64).optional().describe("Only this server's tools."),
  detail: z
    .enum(DETAIL_LEVELS)
    .optional()
    .describe(
      `name | summary (default: + description, first ${SIGNED_ENTRIES} + signature) | full (+ schemas).`,
    ),
  limit: z.number().int().min(1).max(100).optional().describe("Default 5."),
};
export const SearchInput = z.object(searchInputShape).strict();
export type SearchInput = z.infer<typeof SearchInput>;

export const definitionInputShape = {
  name: z.string().min(1).max(200).describe('Qualified name, "<server>.<tool>".'),
  schema: z.boolean().optional().describe("Also its JSON Schema (else only where it says more)."),
};
export const DefinitionInput = z.object(definitionInputShape).strict();
/** `get_tool_definition` options: the MCP tool, `GET /v1/tools/{name}?schema=true`, in-code `getToolDefinition`. */
export type DefinitionOptions = Pick<z.infer<typeof DefinitionInput>, "schema">;

/** `search_tools` output: one entry per tool, as much as `detail` asks for. */
export interface ToolEntry {
  name: string;
  title?: string;
  description?: string;
  /** at `summary`, on the page's first SIGNED_ENTRIES entries; at `full`, on all */
  signature?: string;
  /** a skill's, at `summary` and `full`: what its code is written in (only Python code can call a Python skill) */
  language?: SkillLanguage;
  /** the query's words this tool matched (after stemming, synonyms and verb groups), when not all of them */
  matched?: string[];
  /** at `summary` and `full`: the call waits for a person's approval (the team's policy), and how long */
  approval?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** `search_tools` output. */
export interface SearchResult {
  tools: ToolEntry[];
  /** matches before `limit` */
  total: number;
  /** servers whose list is stale or missing, and why */
  warnings?: string[];
}

/**
 * `get_tool_definition` output. `typescript` is the declaration: its doc comments carry the title,
 * description, hints (annotations) and what the schemas say (descriptions, formats, bounds, patterns,
 * defaults; enums and `required` are in the types).
 */
export interface ToolDefinition {
  name: string;
  server: string;
  typescript: string;
  /** a skill's: what its code is written in (only Python code can call a Python skill) */
  language?: SkillLanguage;
  /** only when the declaration had to cut it (over 2,000 characters) */
  description?: string;
  /** with `schema: true`, or when it says more than the declaration (cut, or a keyword TypeScript cannot say) */
  inputSchema?: unknown;
  /** likewise */
  outputSchema?: unknown;
  /** the call waits for a person's approval (the team's policy), and how long */
  approval?: string;
  warnings?: string[];
}
