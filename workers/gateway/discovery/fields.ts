import type { CatalogTool } from "../../../shared/contract/tools";
import { firstSentence } from "./sentence";
import { stemsOf } from "./terms";

/**
 * What a tool is searched by, field by field, with each field's weight and BM25 length
 * normalization `b`: its name counts most, then its title and the first sentence of its
 * description; the rest of the description, its parameters and its server count a little.
 */
export const FIELDS = [
  { field: "name", weight: 3, b: 0.5 },
  { field: "title", weight: 2, b: 0.5 },
  { field: "lead", weight: 1.5, b: 0.6 },
  { field: "body", weight: 0.4, b: 0.75 },
  { field: "paramNames", weight: 0.6, b: 0.5 },
  { field: "paramText", weight: 0.25, b: 0.75 },
  { field: "server", weight: 0.6, b: 0.3 },
] as const;

export type FieldName = (typeof FIELDS)[number]["field"];

/** A tool's stems per field, in `FIELDS` order. */
export type FieldStems = string[][];

export function toolFields(tool: CatalogTool, serverDescription: string | undefined): FieldStems {
  const description = tool.description?.trim() ?? "";
  const lead = firstSentence(description, Number.POSITIVE_INFINITY);
  const params = parameters(tool.inputSchema);
  const text: Record<FieldName, string> = {
    name: tool.name,
    title: tool.title ?? "",
    lead,
    body: description.slice(lead.length),
    paramNames: params.names.join(" "),
    paramText: params.descriptions.join(" "),
    server: `${tool.server} ${serverDescription ?? ""}`,
  };
  return FIELDS.map(({ field }) => stemsOf(text[field]));
}

/** Top-level parameter names and descriptions of an input schema. */
function parameters(schema: unknown): { names: string[]; descriptions: string[] } {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  const descriptions = Object.values(properties).flatMap((property) =>
    isRecord(property) && typeof property.description === "string" ? [property.description] : [],
  );
  return { names, descriptions };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
