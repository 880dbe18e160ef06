import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { definitionInputShape, searchInputShape } from "../../bridge/discovery-io";
import { DefinitionError, definition, type RequestScope, search } from "../../operations";

const json = (value: unknown, isError = false) => ({
  content: [{ type: "text" as const, text: JSON.stringify(value) }],
  ...(isError ? { isError: true } : {}),
});

export function registerDiscoveryTools(server: McpServer, scope: RequestScope): void {
  server.registerTool(
    "search_tools",
    {
      title: "Search upstream tools",
      description:
        "Find upstream MCP tools to call from execute code. Returns qualified names (server.tool), one-line descriptions and TypeScript call signatures.",
      inputSchema: searchInputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (input) => json(await search(scope, input)),
  );
  server.registerTool(
    "get_tool_definition",
    {
      title: "Get a tool's definition",
      description:
        "Full definition of one upstream tool: description, input/output JSON Schema and a TypeScript declaration for calling it from code.",
      inputSchema: definitionInputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ name }) => {
      try {
        return json(await definition(scope, name));
      } catch (err) {
        if (err instanceof DefinitionError)
          return json({ error: { name: err.name, message: err.message } }, true);
        throw err;
      }
    },
  );
}
