import type {
  DefinitionOptions,
  SearchInput,
  SearchResult,
  ToolDefinition,
} from "../../../shared/contract/discovery";
import { approvalNote } from "../approvals/policy";
import { searchTools, toolDefinition } from "../discovery/service";
import { withSkills } from "../discovery/with-skills";
import type { RequestContext } from "../request/context";
import { traced } from "../tracing/trace";
import { upstreamsFor } from "../upstreams";

/** `search_tools` (MCP tool and GET /v1/tools). */
export function search(ctx: RequestContext, input: SearchInput): Promise<SearchResult> {
  return traced(ctx.trace?.root, "discovery search_tools", {}, async () => {
    const upstreams = await upstreamsFor(ctx);
    return searchTools(
      await withSkills(await upstreams.catalog(), ctx),
      input,
      approvalNote(ctx.config.approvals),
    );
  });
}

/**
 * `get_tool_definition` (MCP tool and GET /v1/tools/{name}); a name that is not a tool, or whose
 * server is broken, throws a ToolCallError saying which (UnknownToolError, UpstreamError, ConfigError).
 */
export async function definition(
  ctx: RequestContext,
  name: string,
  options: DefinitionOptions = {},
): Promise<ToolDefinition> {
  return traced(ctx.trace?.root, "discovery get_tool_definition", {}, async () => {
    const upstreams = await upstreamsFor(ctx);
    return toolDefinition(
      await withSkills(await upstreams.catalog(), ctx),
      name,
      options,
      approvalNote(ctx.config.approvals),
    );
  });
}
