import { MAX_ERROR_MESSAGE_CHARS } from "../../../shared/contract/caps";
import { type CatalogTool, jsIdentifier } from "../../../shared/contract/tools";
import type { Catalog } from "../upstreams";
import { closeMatches } from "./search";
import { NAME_CHARS, quoteName, REASON_CHARS, ToolCallError } from "./tool-call-error";
import { clip } from "./ts-syntax";

/** A server name as an error message quotes it (real ones are at most 32 characters). */
const SERVER_CHARS = 32;

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
