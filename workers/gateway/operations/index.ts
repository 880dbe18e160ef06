import type { ExecuteInput, ExecuteResult } from "../../../shared/contract/execute";
import { executeCode } from "../../sandbox/executor";
import { auditExecution } from "../audit";
import { ToolCallError } from "../bridge/call-tool";
import type { SearchInput } from "../bridge/discovery-io";
import { ExecutionLedger } from "../bridge/ledger";
import { SandboxBridge } from "../bridge/sandbox-bridge";
import { BridgeWork } from "../bridge/work";
import { type SearchResult, searchTools, type ToolDefinition, toolDefinition } from "../discovery/service";
import { ExecutionSession } from "../sessions/execution";
import { withSkills } from "../skills/discovery";
import { skillsForExecution } from "../skills/resolve";
import { loadTeam } from "../teams/resolve";
import { timed } from "../timing/clock";
import { upstreamsFor } from "../upstreams";
import { finishInSession } from "./finish";
import { sandboxHost } from "./sandbox-host";
import type { RequestScope } from "./scope";

export type { RequestScope } from "./scope";

/**
 * `execute` (MCP tool and POST /v1/execute). The isolate gets one capability, a bridge object made
 * for this execution, which counts its calls; its network is none, or the team's egress hosts
 * through that bridge.
 */
export async function execute(scope: RequestScope, input: ExecuteInput): Promise<ExecuteResult> {
  const startedAt = Date.now();
  let session: ExecutionSession | undefined;
  try {
    const { clock } = scope;
    session = await timed(clock, "exec_session", () => ExecutionSession.open(scope, input.sessionId));
    const team = await timed(clock, "team", () => loadTeam(scope.env, scope.team));
    const egress = team?.egress ?? [];
    const ledger = new ExecutionLedger(scope.config.limits);
    const skills = await timed(clock, "skills", () => skillsForExecution(scope, input.code));
    const work = new BridgeWork(scope, ledger, { egressHosts: egress, session, skills: skills.records });
    const ran = await executeCode(
      {
        host: sandboxHost(scope.env, clock),
        limits: scope.config.limits,
        bridge: new SandboxBridge(work),
        ledger,
        egress: egress.length > 0,
        skills,
      },
      input,
    );
    const inSession = session;
    const result = await timed(clock, "finish", () => finishInSession(scope, inSession, ran));
    await timed(clock, "audit", () => auditExecution(scope, inSession.id, input, startedAt, { result }));
    return result;
  } catch (thrown) {
    auditExecution(scope, session?.id, input, startedAt, { thrown });
    throw thrown;
  }
}

/** `search_tools` (MCP tool and GET /v1/tools). */
export async function search(scope: RequestScope, input: SearchInput): Promise<SearchResult> {
  const upstreams = await upstreamsFor(scope.env, scope.config, scope.waitUntil, scope.team);
  return searchTools(await withSkills(await upstreams.catalog(), scope), input);
}

/** `get_tool_definition` (MCP tool and GET /v1/tools/{name}); unknown names → DefinitionError. */
export async function definition(scope: RequestScope, name: string): Promise<ToolDefinition> {
  const upstreams = await upstreamsFor(scope.env, scope.config, scope.waitUntil, scope.team);
  return toolDefinition(await withSkills(await upstreams.catalog(), scope), name);
}

export { ToolCallError as DefinitionError };
