import type { ExecuteInput, ExecuteResult } from "../../../shared/contract/execute";
import { executeCode } from "../../sandbox/executor";
import { auditExecution } from "../audit";
import { ToolCallError } from "../bridge/call-tool";
import type { SearchInput } from "../bridge/discovery-io";
import { toolBridgeFor } from "../bridge/stub";
import { type SearchResult, searchTools, type ToolDefinition, toolDefinition } from "../discovery/service";
import { egressFor } from "../egress/stub";
import { loadTeam } from "../teams/resolve";
import { upstreamsFor } from "../upstreams";
import type { RequestScope } from "./scope";

export type { RequestScope } from "./scope";

/**
 * `execute` (MCP tool and POST /v1/execute). The isolate's only capability is the tool bridge; its
 * network is none, or the team's egress hosts through the EgressGate.
 */
export async function execute(scope: RequestScope, input: ExecuteInput): Promise<ExecuteResult> {
  const startedAt = Date.now();
  try {
    const bridge = toolBridgeFor({
      requestId: scope.requestId,
      scope: scope.team,
      keyId: scope.keyId,
      ...(scope.sessionId ? { sessionId: scope.sessionId } : {}),
    });
    const team = await loadTeam(scope.env, scope.team);
    const result = await executeCode(
      {
        loader: scope.env.LOADER,
        limits: scope.config.limits,
        sandboxEnv: { TOOLS: bridge },
        globalOutbound: egressFor(scope.team, team?.egress),
      },
      input,
    );
    auditExecution(scope, input, startedAt, { result });
    return result;
  } catch (thrown) {
    auditExecution(scope, input, startedAt, { thrown });
    throw thrown;
  }
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
