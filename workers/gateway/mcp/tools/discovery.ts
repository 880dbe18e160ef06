import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import {
  definitionInputShape,
  SIGNED_ENTRIES,
  searchInputShape,
} from "../../../../shared/contract/discovery";
import { ToolCallError } from "../../discovery/tool-call-error";
import { definition, search } from "../../operations/discovery";
import type { RequestContext } from "../../request/context";

const json = (value: unknown, isError = false) => ({
  content: [{ type: "text" as const, text: JSON.stringify(value) }],
  ...(isError ? { isError: true } : {}),
});

export function registerDiscoveryTools(server: McpServer, ctx: RequestContext): void {
  server.registerTool(
    "search_tools",
    {
      title: "Search upstream tools",
      description: `Find upstream MCP tools to call from execute code: a ranked page of qualified names (server.tool), one-line descriptions, TypeScript call signatures of the first ${SIGNED_ENTRIES}, and the total.`,
      inputSchema: z.object(searchInputShape),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (input) => json(await search(ctx, input)),
  );
  server.registerTool(
    "get_tool_definition",
    {
      title: "Get a tool's definition",
      description:
        "One upstream tool as a TypeScript declaration for calling it from code, with its description and constraints in doc comments.",
      inputSchema: z.object(definitionInputShape),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ name, schema }) => {
      try {
        return json(await definition(ctx, name, { schema }));
      } catch (err) {
        if (err instanceof ToolCallError)
          return json({ error: { name: err.name, message: err.message } }, true);
        throw err;
      }
    },
  );
}
