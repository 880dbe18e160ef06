import { type CatalogTool, type JsonSchema, jsIdentifier } from "../../../shared/contract/tools";
import { SKILLS_SERVER } from "../skills/catalog";
import { docComment } from "./doc-comment";
import { convertSchema } from "./schema-ts";
import type { TsOptions } from "./schema-ts-options";
import { clip, isDeclarableName, isRecord, member, propertyKey } from "./ts-syntax";

export { DEFAULT_TS_OPTIONS, type TsOptions } from "./schema-ts-options";

const MAX_TOOL_DESCRIPTION = 2_000;
const INPUT_CHARS = 12_000;
const OUTPUT_CHARS = 6_000;
const SIGNATURE_CHARS = 300;

/**
 * A JSON Schema (draft-07 or 2020-12) as a TypeScript type expression. Multi-line object literals are
 * indented from `indent`, the indentation of the line the expression starts on. Local `$ref`s are
 * resolved (cycles become `unknown`); depth and size are bounded by `options`.
 */
export function schemaToTs(schema: JsonSchema, indent = "", options: Partial<TsOptions> = {}): string {
  return convertSchema(schema, indent, options).text;
}

/** `tools.demo.list_tickets`, or `tools["my-server"].list_tickets` for a server name that is not an identifier. */
export function toolPath(tool: CatalogTool): string {
  if (tool.server === SKILLS_SERVER) return member(SKILLS_SERVER, tool.name);
  return member(member("tools", tool.server), jsIdentifier(tool.name));
}

const RETURNS_SKILL = "Resolves to what the skill's code returns (a saved skill of this team).";
const RETURNS_TYPED_SKILL =
  "Resolves to what the skill's code returns (a saved skill of this team), typed below by its\n" +
  "outputSchema (declared when it was saved; not checked at run time).";

/** Arguments may be left out when the input schema requires nothing. */
function argsOptional(schema: JsonSchema): boolean {
  if (["$ref", "allOf", "anyOf", "oneOf"].some((key) => schema[key] !== undefined)) return false;
  return !Array.isArray(schema.required) || schema.required.length === 0;
}

const RETURNS_UNWRAPPED =
  "Resolves to the tool's structuredContent when it sends one, else its text content\n" +
  "parsed as JSON when that parses, else the text (several content items: an array).";

function hintsLine(annotations: CatalogTool["annotations"]): string | undefined {
  if (!isRecord(annotations)) return undefined;
  const hints = [
    annotations.readOnlyHint === true ? "read-only" : undefined,
    annotations.destructiveHint === true && annotations.readOnlyHint !== true ? "destructive" : undefined,
    annotations.idempotentHint === true ? "idempotent" : undefined,
    annotations.openWorldHint === true ? "open-world" : undefined,
  ].filter((h): h is string => h !== undefined);
  return hints.length > 0 ? `Hints: ${hints.join(", ")}.` : undefined;
}

/** What the declaration leaves out, per side: where the JSON Schema or description says more. */
export interface Declaration {
  typescript: string;
  /** the input schema says something the declaration does not (cut, or a keyword with no notation) */
  inputUnexpressed: boolean;
  outputUnexpressed: boolean;
  /** the tool's description was cut to MAX_TOOL_DESCRIPTION */
  descriptionCut: boolean;
}

function headerLines(tool: CatalogTool, truncated: boolean, more: string[]): string[] {
  const fn = jsIdentifier(tool.name);
  const about = tool.description?.trim() || tool.title?.trim() || "(no description)";
  const lines = [clip(about, MAX_TOOL_DESCRIPTION)];
  if (tool.title?.trim() && tool.description?.trim()) lines.unshift(`${tool.title.trim()}.`, "");
  lines.push("", `Call: await ${toolPath(tool)}(args)`);
  lines.push(`  or: await callTool(${JSON.stringify(tool.qualifiedName)}, args)`);
  if (fn !== tool.name)
    lines.push(`(MCP tool ${JSON.stringify(tool.name)} on server ${JSON.stringify(tool.server)})`);
  if (tool.server === SKILLS_SERVER) lines.push(tool.outputSchema ? RETURNS_TYPED_SKILL : RETURNS_SKILL);
  else
    lines.push(
      tool.outputSchema ? "Resolves to the tool's structuredContent, typed below." : RETURNS_UNWRAPPED,
    );
  const hints = hintsLine(tool.annotations);
  if (hints) lines.push(hints);
  if (truncated)
    lines.push("Part of the schema was too large or too deep to show: those parts are typed unknown.");
  if (more.length > 0) lines.push(`Its JSON Schema says more than shown here: see ${more.join(" and ")}.`);
  return lines;
}

/**
 * A declaration block for one tool: a doc comment (description, how to call it, what it resolves to)
 * and `declare namespace tools.<server> { function <name>(args: …): Promise<…>; }`. Blocks of several
 * tools can be concatenated (namespaces merge). Names that cannot be declared that way (a reserved
 * word, a server name with `-`) get `declare const tools: { "<server>": { <name>(args: …): … } }`.
 */
export function toolDeclaration(tool: CatalogTool): string {
  return declareTool(tool).typescript;
}

/** `toolDeclaration`, and what it leaves out (get_tool_definition adds those parts of the tool). */
export function declareTool(tool: CatalogTool): Declaration {
  const fn = jsIdentifier(tool.name);
  const nested = !isDeclarableName(tool.server) || !isDeclarableName(fn);
  const indent = nested ? "    " : "  ";
  const input = convertSchema(tool.inputSchema, indent, { maxChars: INPUT_CHARS });
  const output = tool.outputSchema
    ? convertSchema(tool.outputSchema, indent, { maxChars: OUTPUT_CHARS })
    : { text: "unknown", truncated: false, unexpressed: false };
  const more = [
    ...(input.unexpressed ? ["inputSchema"] : []),
    ...(output.unexpressed ? ["outputSchema"] : []),
  ];
  const header = headerLines(tool, input.truncated || output.truncated, more);
  const doc = docComment(header.join("\n"), "").join("\n");
  const params = `args${argsOptional(tool.inputSchema) ? "?" : ""}: ${input.text}`;
  const facts = {
    inputUnexpressed: input.unexpressed,
    outputUnexpressed: output.unexpressed,
    descriptionCut: (tool.description?.trim().length ?? 0) > MAX_TOOL_DESCRIPTION,
  };
  if (tool.server === SKILLS_SERVER) {
    const typescript = `${doc}\ndeclare namespace ${SKILLS_SERVER} {\n  function ${fn}(${params}): Promise<${output.text}>;\n}`;
    return { typescript, ...facts };
  }
  if (!nested) {
    const typescript = `${doc}\ndeclare namespace tools.${tool.server} {\n  function ${fn}(${params}): Promise<${output.text}>;\n}`;
    return { typescript, ...facts };
  }
  const server = propertyKey(tool.server);
  const typescript = `${doc}\ndeclare const tools: {\n  ${server}: {\n    ${propertyKey(fn)}(${params}): Promise<${output.text}>;\n  };\n};`;
  return { typescript, ...facts };
}

/**
 * Collapse depths tried in turn (arguments, result) until the line fits: the arguments matter most, and
 * their top-level keys are always shown (cut with `…` if they alone are too long).
 */
const COLLAPSE_STEPS: [number, number][] = [
  [2, 2],
  [2, 1],
  [1, 1],
  [2, 0],
  [1, 0],
];

function compact(schema: JsonSchema, collapseDepth: number): string {
  return convertSchema(schema, "", { compact: true, collapseDepth, maxChars: 4 * SIGNATURE_CHARS }).text;
}

/**
 * One line: `tools.demo.list_tickets(args: { status?: "open" | "closed"; limit?: number }): Promise<…>`.
 * No doc comments; object literals nested two deep (fewer when needed) are shown as `{…}`, long unions
 * end with `…`; at most 300 characters, ending with `…` when cut.
 */
export function callSignature(tool: CatalogTool): string {
  const head = `${toolPath(tool)}(args${argsOptional(tool.inputSchema) ? "?" : ""}: `;
  let line = "";
  for (const [inputDepth, outputDepth] of COLLAPSE_STEPS) {
    const output = tool.outputSchema ? compact(tool.outputSchema, outputDepth) : "unknown";
    line = `${head}${compact(tool.inputSchema, inputDepth)}): Promise<${output}>`;
    if (line.length <= SIGNATURE_CHARS) return line;
  }
  return clip(line, SIGNATURE_CHARS);
}
