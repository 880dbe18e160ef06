import type { ExecuteInput, ExecuteResult } from "../../../shared/contract/execute";
import { executeCode } from "../../sandbox/executor";
import { ToolCallError } from "../bridge/call-tool";
import type { SearchInput } from "../bridge/discovery-io";
import { toolBridgeFor } from "../bridge/stub";
import { type SearchResult, searchTools, type ToolDefinition, toolDefinition } from "../discovery/service";
import { upstreamsFor } from "../upstreams";
import type { RequestScope } from "./scope";

export type { RequestScope } from "./scope";

/** `execute` (MCP tool and POST /v1/execute). The isolate's only capability is the tool bridge. */
export function execute(scope: RequestScope, input: ExecuteInput): Promise<ExecuteResult> {
  const bridge = toolBridgeFor({
    requestId: scope.requestId,
    scope: scope.team,
    keyId: scope.keyId,
    ...(scope.sessionId ? { sessionId: scope.sessionId } : {}),
  });
  return executeCode(
    { loader: scope.env.LOADER, limits: scope.config.limits, sandboxEnv: { TOOLS: bridge } },
    input,
  );
}

/** `search_tools` (MCP tool and GET /v1/tools). */
export async function search(scope: RequestScope, input: SearchInput): Promise<SearchResult> {
  const upstreams = await upstreamsFor(scope.env, scope.config, scope.waitUntil, scope.team);
  return searchTools(await upstreams.catalog(), input);
}

/** `get_tool_definition` (MCP tool and GET /v1/tools/{name}); unknown names → DefinitionError. */
export async function definition(scope: RequestScope, name: string): Promise<ToolDefinition> {
  const upstreams = await upstreamsFor(scope.env, scope.config, scope.waitUntil, scope.team);
  return toolDefinition(await upstreams.catalog(), name);
}

export { ToolCallError as DefinitionError };
