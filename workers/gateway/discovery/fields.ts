import type { CatalogTool } from "../../../shared/contract/tools";
import { firstSentence } from "./sentence";
import { stemsOf } from "./terms";

/**
 * What a tool is searched by, field by field, with each field's weight and BM25 length
 * normalization `b`: its name counts most, then its title and the first sentence of its
 * description; the rest of the description, its parameters and its server count a little, but the
 * values its parameters' enums allow count well: a query naming a state or kind ("open tickets",
 * "urgent") names a filter of the tool that has it.
 */
export const FIELDS = [
  { field: "name", weight: 3, b: 0.5, identifier: true },
  { field: "title", weight: 2, b: 0.5, identifier: false },
  { field: "lead", weight: 2, b: 0.6, identifier: false },
  { field: "body", weight: 0.4, b: 0.75, identifier: false },
  { field: "paramNames", weight: 0.6, b: 0.5, identifier: true },
  { field: "paramText", weight: 0.25, b: 0.75, identifier: false },
  { field: "values", weight: 1.5, b: 0.5, identifier: false },
  { field: "server", weight: 0.6, b: 0.3, identifier: false },
] as const;

export type FieldName = (typeof FIELDS)[number]["field"];

/** A tool's stems per field, in `FIELDS` order. */
export type FieldStems = string[][];

/** A tool's stems, and a number for the text they come from (equal number, equal text and stems). */
export interface ToolFields {
  id: number;
  stems: FieldStems;
}

/**
 * Per-isolate state: tools seen before, by their text. Each request has a new catalog (KV JSON), mostly
 * the same tools, so their stems are kept here across requests (at most this many tools, then started
 * afresh: more than one team's catalog of 10,000 tools).
 */
const known = new Map<string, ToolFields>();
const KNOWN_TOOLS = 25_000;
/** The last number given to a tool text; never reused, also after `known` starts afresh. */
let lastId = 0;

/**
 * A tool's stems per field; with `remember`, kept by its text (a catalog found by its text reads every
 * tool's fields again); without, not kept (a catalog found by version is read once).
 */
export function toolFields(
  tool: CatalogTool,
  serverDescription: string | undefined,
  remember = true,
): ToolFields {
  const description = tool.description?.trim() ?? "";
  const sentence = firstSentence(description, Number.POSITIVE_INFINITY);
  // An example in parentheses ("(e.g. status "open" to see open tickets per assignee)") says how to
  // call the tool, not what it does: it counts as the rest of the description does.
  const asides = sentence.match(ASIDE) ?? [];
  const lead = asides.reduce((out, aside) => out.replace(aside, " "), sentence);
  const params = parameters(tool.inputSchema);
  const text: Record<FieldName, string> = {
    name: tool.name,
    title: tool.title ?? "",
    lead,
    body: `${asides.join(" ")} ${description.slice(sentence.length)}`,
    paramNames: params.names.join(" "),
    paramText: params.descriptions.join(" "),
    values: params.values.join(" "),
    server: `${tool.server} ${serverDescription ?? ""}`,
  };
  const stemmed = () => FIELDS.map(({ field, identifier }) => stemsOf(text[field], identifier));
  if (!remember) return { id: ++lastId, stems: stemmed() };
  const key = FIELDS.map(({ field }) => text[field]).join("\u0000");
  let fields = known.get(key);
  if (fields === undefined) {
    if (known.size >= KNOWN_TOOLS) known.clear();
    fields = { id: ++lastId, stems: stemmed() };
    known.set(key, fields);
  }
  return fields;
}

/**
 * Parameter names, their descriptions and their enum values (`state`: open, closed), down to the
 * properties of nested objects and array items (`locations[].latitude`), a few levels deep.
 */
function parameters(schema: unknown): { names: string[]; descriptions: string[]; values: string[] } {
  const names: string[] = [];
  const descriptions: string[] = [];
  const values: string[] = [];
  const visit = (node: unknown, depth: number) => {
    if (!isRecord(node) || depth > MAX_DEPTH) return;
    const properties = isRecord(node.properties) ? node.properties : {};
    for (const [name, property] of Object.entries(properties)) {
      names.push(name);
      if (!isRecord(property)) continue;
      const items = isRecord(property.items) ? property.items : {};
      if (typeof property.description === "string") descriptions.push(property.description);
      for (const list of [property.enum, items.enum]) {
        if (Array.isArray(list)) values.push(...list.filter((v): v is string => typeof v === "string"));
      }
      visit(property, depth + 1);
      visit(items, depth + 1);
    }
  };
  visit(schema, 0);
  return { names, descriptions, values };
}

/** A parenthesized aside in a sentence (not nested; bounded, so matching stays linear). */
const ASIDE = /\([^()]{1,300}\)/g;

/** How deep nested parameters are read. */
const MAX_DEPTH = 2;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
