import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type CatalogTool, jsIdentifier } from "../../../shared/contract/tools";
import { closeMatches } from "../discovery/search";
import type { Catalog, UpstreamServer } from "../upstreams";
import { withUpstream } from "../upstreams/client";
import { describeFailure, withDeadline } from "../upstreams/fetch-tools";
import { errorText, unwrapResult } from "./unwrap";
import { argumentErrors } from "./validate";

/** A tool result bigger than this is refused rather than copied into the sandbox. */
const MAX_RESULT_CHARS = 8_000_000;

/** A failure to hand back to code as a thrown Error (name + message). */
export class ToolCallError extends Error {
  constructor(
    name: string,
    message: string,
    /** the workspace path a session error is about */
    readonly path?: string,
  ) {
    super(message);
    this.name = name;
  }
}

/**
 * Finds a tool by qualified name. `tools.<server>.<x>` arrives as `<server>.<x>` where x may be
 * the identifier form of the real name (`get_sum` for `get-sum`), so that is tried second.
 */
export function findTool(catalog: Catalog, qualifiedName: string): CatalogTool {
  const exact = catalog.tools.find((t) => t.qualifiedName === qualifiedName);
  if (exact) return exact;
  const dot = qualifiedName.indexOf(".");
  const server = dot > 0 ? qualifiedName.slice(0, dot) : "";
  const name = dot > 0 ? qualifiedName.slice(dot + 1) : qualifiedName;
  const mapped = catalog.tools.find((t) => t.server === server && jsIdentifier(t.name) === name);
  if (mapped) return mapped;
  const state = catalog.servers.find((s) => s.name === server);
  const misconfigured = catalog.problems?.find(
    (p) => p.startsWith(`MCP_SERVERS.${server}.`) || p.startsWith(`MCP_SERVERS.${server}:`),
  );
  if (!state && misconfigured) {
    throw new ToolCallError(
      "ConfigError",
      `${qualifiedName}: server "${server}" is misconfigured (${misconfigured})`,
    );
  }
  if (state?.state === "failing") {
    throw new ToolCallError(
      "UpstreamError",
      `${qualifiedName}: server "${server}" is unavailable (${state.error ?? "no tool list"})`,
    );
  }
  const hint = closeMatches(qualifiedName, catalog.tools);
  const known = state
    ? ""
    : ` There is no server "${server}"; servers: ${catalog.servers.map((s) => s.name).join(", ") || "none"}.`;
  throw new ToolCallError(
    "UnknownToolError",
    `Unknown tool "${qualifiedName}".${known}${hint.length ? ` Did you mean: ${hint.join(", ")}?` : " Use searchTools() to find tools."}`,
  );
}

/**
 * Validates, calls the upstream, unwraps. Every failure is a ToolCallError naming the tool. Returns
 * the value and its JSON text (made for the size check; the audit sizes the result from it).
 */
export async function callTool(
  catalog: Catalog,
  servers: UpstreamServer[],
  qualifiedName: string,
  args: unknown,
  timeoutMs: number,
): Promise<{ value: unknown; json: string }> {
  const tool = findTool(catalog, qualifiedName);
  const input = asJson(tool.qualifiedName, args === undefined || args === null ? {} : args);
  const problems = argumentErrors(tool, input);
  if (problems.length) {
    throw new ToolCallError(
      "ValidationError",
      `Invalid arguments for ${tool.qualifiedName}:\n${problems.map((p) => `  ${p}`).join("\n")}`,
    );
  }
  const server = servers.find((s) => s.name === tool.server);
  if (!server)
    throw new ToolCallError(
      "UpstreamError",
      `${tool.qualifiedName}: server "${tool.server}" is not configured`,
    );
  let result: CallToolResult;
  try {
    result = (await withDeadline(
      withUpstream(server, timeoutMs, (client) =>
        client.callTool({ name: tool.name, arguments: input as Record<string, unknown> }, undefined, {
          timeout: timeoutMs,
        }),
      ),
      timeoutMs,
      `timed out after ${timeoutMs} ms`,
    )) as CallToolResult;
  } catch (err) {
    throw new ToolCallError("UpstreamError", `${tool.qualifiedName} failed: ${describeFailure(err)}`);
  }
  if (result.isError)
    throw new ToolCallError("ToolError", `${tool.qualifiedName} returned an error: ${errorText(result)}`);
  const value = unwrapResult(result);
  const json = JSON.stringify(value ?? null);
  if (json.length > MAX_RESULT_CHARS) {
    throw new ToolCallError(
      "UpstreamError",
      `${tool.qualifiedName} returned ${json.length} characters; the most a sandbox accepts is ${MAX_RESULT_CHARS}`,
    );
  }
  return { value, json };
}

/** Arguments as the upstream will see them (JSON): `undefined` members dropped, Dates as strings. */
function asJson(name: string, args: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(args));
  } catch (err) {
    throw new ToolCallError(
      "ValidationError",
      `Invalid arguments for ${name}: not JSON-serializable (${(err as Error).message})`,
    );
  }
}
