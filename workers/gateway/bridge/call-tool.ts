import type { CallToolResult } from "@modelcontextprotocol/client";
import { MAX_ERROR_MESSAGE_CHARS } from "../../../shared/contract/caps";
import { type CatalogTool, jsIdentifier } from "../../../shared/contract/tools";
import { closeMatches } from "../discovery/search";
import { clip } from "../discovery/ts-syntax";
import type { Catalog, UpstreamServer } from "../upstreams";
import { withUpstream } from "../upstreams/client";
import { describeFailure, withDeadline } from "../upstreams/fetch-tools";
import { errorText, unwrapResult } from "./unwrap";
import { argumentErrors } from "./validate";

/** A tool result bigger than this is refused rather than copied into the sandbox. */
const MAX_RESULT_CHARS = 8_000_000;
/** A name as an error message quotes it (names from code are up to 300 characters). */
const NAME_CHARS = 60;
/** A server name as an error message quotes it (real ones are at most 32 characters). */
const SERVER_CHARS = 32;
/** A reason (an upstream's failure, a config problem) as an error message quotes it. */
const REASON_CHARS = 120;
/** Errors whose message is data the agent needs whole (see ToolCallError). */
const UNCUT = new Set(["ValidationError", "ToolError"]);

/**
 * A failure to hand back to code as a thrown Error (name + message). Messages are written for the
 * agent: what failed and what to change, at most MAX_ERROR_MESSAGE_CHARS (a longer one is cut).
 * Two carry data and may be longer: ValidationError lists each failing path, ToolError is the
 * upstream's own error text (up to 1,000 characters).
 */
export class ToolCallError extends Error {
  constructor(
    name: string,
    message: string,
    /** the workspace path a session error is about */
    readonly path?: string,
  ) {
    super(UNCUT.has(name) ? message : clip(message, MAX_ERROR_MESSAGE_CHARS));
    this.name = name;
  }
}

/** `name` cut for quoting in an error message. */
export const quoteName = (name: string): string => clip(name, NAME_CHARS);

/**
 * Finds a tool by qualified name. `tools.<server>.<x>` arrives as `<server>.<x>` where x may be
 * the identifier form of the real name (`get_sum` for `get-sum`), so that is tried second. A tool
 * the team's allow/deny lists remove is a ToolNotAllowedError naming the rule; a name no server
 * lists is an UnknownToolError with close matches among the tools the team may use.
 */
export function findTool(catalog: Catalog, qualifiedName: string): CatalogTool {
  const dot = qualifiedName.indexOf(".");
  const server = dot > 0 ? qualifiedName.slice(0, dot) : "";
  const name = dot > 0 ? qualifiedName.slice(dot + 1) : qualifiedName;
  const named = (t: { server: string; name: string; qualifiedName: string }) =>
    t.qualifiedName === qualifiedName || (t.server === server && jsIdentifier(t.name) === name);
  const exact = catalog.tools.find((t) => t.qualifiedName === qualifiedName);
  if (exact) return exact;
  const mapped = catalog.tools.find((t) => t.server === server && jsIdentifier(t.name) === name);
  if (mapped) return mapped;
  const refused = catalog.notAllowed?.find(named);
  if (refused) {
    throw new ToolCallError(
      "ToolNotAllowedError",
      `${quoteName(refused.qualifiedName)} is not allowed for this team (${refused.rule}); ask the team's admin, or use another tool`,
    );
  }
  const wanted = quoteName(qualifiedName);
  const serverName = clip(server, SERVER_CHARS);
  const state = catalog.servers.find((s) => s.name === server);
  const misconfigured = catalog.problems?.find(
    (p) => p.startsWith(`MCP_SERVERS.${server}.`) || p.startsWith(`MCP_SERVERS.${server}:`),
  );
  if (!state && misconfigured) {
    throw new ToolCallError(
      "ConfigError",
      `${wanted}: server "${serverName}" is misconfigured (${clip(misconfigured, REASON_CHARS)}); an operator must fix it`,
    );
  }
  if (state?.state === "failing") {
    throw new ToolCallError(
      "UpstreamError",
      `${wanted}: server "${serverName}" is unavailable (${clip(state.error ?? "no tool list", REASON_CHARS)}); retry later, or use another server's tools`,
    );
  }
  const leftOut = state?.leftOut?.find((t) => t.name === name || jsIdentifier(t.name) === name);
  if (leftOut) {
    throw new ToolCallError(
      "UpstreamError",
      `${wanted}: left out of the catalog (${clip(leftOut.reason, REASON_CHARS)}); use another tool`,
    );
  }
  const known = state
    ? ""
    : ` There is no server "${serverName}"; servers: ${clip(catalog.servers.map((s) => s.name).join(", ") || "none", NAME_CHARS)}.`;
  const said = `Unknown tool "${wanted}".${known}`;
  // Close matches, best first, as many as fit in the message.
  let hint = "";
  for (const match of closeMatches(qualifiedName, catalog.tools)) {
    const longer = `${hint ? `${hint}, ` : " Did you mean: "}${quoteName(match)}`;
    if (said.length + longer.length + 1 > MAX_ERROR_MESSAGE_CHARS) break;
    hint = longer;
  }
  throw new ToolCallError(
    "UnknownToolError",
    `${said}${hint ? `${hint}?` : " Use searchTools() to find tools."}`,
  );
}

/** How one call goes out: its deadline, what may stop it, what must allow it first. */
export interface CallOptions {
  timeoutMs: number;
  /**
   * aborts the upstream call: a 2025-era upstream gets notifications/cancelled, a 2026-07-28 one
   * sees the request's response stream closed (its cancellation signal)
   */
  signal?: AbortSignal | undefined;
  /** runs after validation, before the upstream sees anything: throws to refuse (approvals) */
  allow?: ((tool: CatalogTool, input: unknown) => Promise<void>) | undefined;
}

/**
 * Validates, asks `allow`, calls the upstream, unwraps. Every failure is a ToolCallError naming the
 * tool. Returns the value and its JSON text (made for the size check; the audit sizes the result
 * from it).
 */
export async function callTool(
  catalog: Catalog,
  servers: UpstreamServer[],
  qualifiedName: string,
  args: unknown,
  { timeoutMs, signal, allow }: CallOptions,
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
      `${quoteName(tool.qualifiedName)}: server "${tool.server}" is not configured; an operator must add it`,
    );
  await allow?.(tool, input);
  let result: CallToolResult;
  try {
    result = await withDeadline(
      withUpstream(server, timeoutMs, (client) =>
        client.callTool(
          { name: tool.name, arguments: input as Record<string, unknown> },
          { timeout: timeoutMs, ...(signal ? { signal } : {}) },
        ),
      ),
      timeoutMs,
      `timed out after ${timeoutMs} ms`,
    );
  } catch (err) {
    if (signal?.aborted) {
      throw new ToolCallError(
        "CancelledError",
        `${quoteName(tool.qualifiedName)}: the execution was cancelled`,
      );
    }
    throw new ToolCallError(
      "UpstreamError",
      `${quoteName(tool.qualifiedName)} failed: ${clip(describeFailure(err), REASON_CHARS + 60)}; retry later, or use another tool`,
    );
  }
  if (result.isError)
    throw new ToolCallError("ToolError", `${tool.qualifiedName} returned an error: ${errorText(result)}`);
  const value = unwrapResult(result);
  const json = JSON.stringify(value ?? null);
  if (json.length > MAX_RESULT_CHARS) {
    throw new ToolCallError(
      "UpstreamError",
      `${quoteName(tool.qualifiedName)} returned ${json.length} characters; the most a sandbox accepts is ${MAX_RESULT_CHARS}. Ask for less: a smaller limit or page, or fewer fields`,
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
      `Invalid arguments for ${quoteName(name)}: not JSON-serializable (${clip((err as Error).message, REASON_CHARS)}); pass plain objects, arrays, strings, numbers`,
    );
  }
}
