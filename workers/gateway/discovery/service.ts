import {
  type DefinitionOptions,
  type SearchInput,
  type SearchResult,
  SIGNED_ENTRIES,
  type ToolDefinition,
  type ToolEntry,
} from "../../../shared/contract/discovery";
import type { CatalogTool, DetailLevel } from "../../../shared/contract/tools";
import type { Catalog } from "../upstreams";
import { findTool } from "./find-tool";
import { clampLimit, type RankedTool, topTools } from "./search";
import { firstSentence } from "./sentence";
import { callSignature, declareTool } from "./typescript";

const SUMMARY_CHARS = 200;
/** At most this many matched words per tool entry. */
const MAX_MATCHED = 8;

/** What the team's approval policy says of a tool (approvals/policy.ts `approvalNote`). */
export type ApprovalNote = (tool: CatalogTool) => string | undefined;
const NO_NOTE: ApprovalNote = () => undefined;

/** `search_tools`, `GET /v1/tools` and in-code `searchTools`: one implementation. */
export function searchTools(
  catalog: Catalog,
  input: SearchInput,
  approval: ApprovalNote = NO_NOTE,
): SearchResult {
  const detail: DetailLevel = input.detail ?? "summary";
  const warnings = [...catalogWarnings(catalog), ...leftOutWarnings(catalog), ...(catalog.problems ?? [])];
  if (input.server && !catalog.servers.some((s) => s.name === input.server)) {
    warnings.push(
      `unknown server "${input.server}"; servers: ${catalog.servers.map((s) => s.name).join(", ") || "none"}`,
    );
  }
  const { top, total } = topTools(
    catalog.tools,
    {
      query: input.query,
      server: input.server,
      servers: catalog.servers,
      ...(catalog.version ? { version: catalog.version } : {}),
    },
    clampLimit(input.limit),
  );
  return {
    tools: top.map((hit, i) => entry(hit, detail, i < SIGNED_ENTRIES, approval)),
    total,
    ...(warnings.length ? { warnings } : {}),
  };
}

/**
 * `get_tool_definition`, `GET /v1/tools/{name}` and in-code `getToolDefinition`: the TypeScript
 * declaration, whose doc comments carry the title, description, hints and what the schemas say. The
 * input/output JSON Schema comes along when asked for (`schema: true`) or when it says more than the
 * declaration (see `declareTool`); the description when the declaration had to cut it. Throws ToolCallError.
 */
export function toolDefinition(
  catalog: Catalog,
  name: string,
  options: DefinitionOptions = {},
  approval: ApprovalNote = NO_NOTE,
): ToolDefinition {
  const tool = findTool(catalog, name);
  const note = approval(tool);
  const warnings = catalogWarnings(catalog).filter((w) => w.startsWith(`${tool.server}:`));
  const declared = declareTool(tool);
  const all = options.schema === true;
  return {
    name: tool.qualifiedName,
    server: tool.server,
    typescript: declared.typescript,
    ...(tool.language ? { language: tool.language } : {}),
    ...(declared.descriptionCut && tool.description ? { description: tool.description } : {}),
    ...(all || declared.inputUnexpressed ? { inputSchema: tool.inputSchema } : {}),
    ...(tool.outputSchema && (all || declared.outputUnexpressed) ? { outputSchema: tool.outputSchema } : {}),
    ...(note ? { approval: note } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}

/**
 * One entry of a page: `matched` only when the tool did not match every word of the query; the signature
 * on the page's first SIGNED_ENTRIES at `summary` (the tool an agent calls is nearly always among them;
 * the rest name alternatives, for get_tool_definition), on all at `full`.
 */
function entry(
  { tool, matched, matchedAll }: RankedTool,
  detail: DetailLevel,
  signed: boolean,
  approval: ApprovalNote,
): ToolEntry {
  if (detail === "name") return { name: tool.qualifiedName };
  const note = approval(tool);
  const summary: ToolEntry = {
    name: tool.qualifiedName,
    ...(tool.description ? { description: firstSentence(tool.description, SUMMARY_CHARS) } : {}),
    ...(signed || detail === "full" ? { signature: callSignature(tool) } : {}),
    ...(tool.language ? { language: tool.language } : {}),
    ...(matched.length > 0 && !matchedAll ? { matched: matched.slice(0, MAX_MATCHED) } : {}),
    ...(note ? { approval: note } : {}),
  };
  if (detail === "summary") return summary;
  return {
    ...summary,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
}

/** Left-out tools named per server, at most this many each. */
const LEFT_OUT_NAMED = 3;

/** Per server whose list has tools the catalog left out: one line naming them and why. */
function leftOutWarnings(catalog: Catalog): string[] {
  return catalog.servers.flatMap(({ name, leftOut }) => {
    if (!leftOut?.length) return [];
    const named = leftOut.slice(0, LEFT_OUT_NAMED).map((t) => `${t.name} (${t.reason})`);
    const more = leftOut.length > LEFT_OUT_NAMED ? `, and ${leftOut.length - LEFT_OUT_NAMED} more` : "";
    const count = `${leftOut.length} ${leftOut.length === 1 ? "tool" : "tools"}`;
    return [`${name}: ${count} left out: ${named.join(", ")}${more}`];
  });
}

function catalogWarnings(catalog: Catalog): string[] {
  return catalog.servers
    .filter((s) => s.state !== "ok" || s.needs)
    .map((s) =>
      s.needs
        ? `${s.name}: ${"secret" in s.needs ? `needs your secret ${s.needs.secret}` : s.needs.connection === "expired" ? "your connection expired" : "not connected for you"} (its tools as a team member last saw them${s.tools ? "" : ": none yet"}); calling one of its tools gives the link to connect`
        : s.state === "stale"
          ? `${s.name}: tool list is stale (${s.ageSeconds ?? "?"} s old${s.error ? `; ${s.error}` : ""})`
          : `${s.name}: unavailable (${s.error ?? "no tool list"})`,
    );
}
