import { z } from "zod";
import { DETAIL_LEVELS } from "../../../shared/contract/tools";

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
    .describe("name | summary (default: + description and TypeScript signature) | full (+ schemas)."),
  limit: z.number().int().min(1).max(100).optional().describe("Default 20."),
};
export const SearchInput = z.object(searchInputShape).strict();
export type SearchInput = z.infer<typeof SearchInput>;

export const definitionInputShape = {
  name: z.string().min(1).max(200).describe('Qualified name, "<server>.<tool>".'),
};
export const DefinitionInput = z.object(definitionInputShape).strict();
