import type { JsonSchema } from "../../../shared/contract/tools";
import { clip } from "./ts-syntax";

const MAX_HINT = 80;

/** Makes text safe inside a block comment. */
export function escapeComment(text: string): string {
  return text.replaceAll("*/", "*\\/");
}

/**
 * `text` as a JSDoc comment at `indent`: one line when short and single-line, else ` * ` lines.
 * Blank runs collapse to one blank line; returns no lines for blank text.
 */
export function docComment(text: string, indent: string): string[] {
  const lines = escapeComment(text)
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line, i, all) => line !== "" || (i > 0 && all[i - 1] !== ""));
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length === 0) return [];
  if (lines.length === 1 && lines[0]!.length <= 100) return [`${indent}/** ${lines[0]} */`];
  return [
    `${indent}/**`,
    ...lines.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)),
    `${indent} */`,
  ];
}

function json(value: unknown): string {
  return clip(JSON.stringify(value) ?? String(value), MAX_HINT);
}

function numberHint(schema: JsonSchema, key: string, label: string): string | undefined {
  const value = schema[key];
  return typeof value === "number" ? `${label} ${value}` : undefined;
}

/** Short notes about a property's constraints: default, format, bounds, pattern, example, deprecation. */
export function schemaHints(schema: JsonSchema): string[] {
  const hints: (string | undefined)[] = [];
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("integer")) hints.push("integer");
  if ("default" in schema) hints.push(`default: ${json(schema.default)}`);
  if (typeof schema.format === "string") hints.push(`format: ${clip(schema.format, MAX_HINT)}`);
  hints.push(numberHint(schema, "minimum", "min"), numberHint(schema, "maximum", "max"));
  hints.push(numberHint(schema, "exclusiveMinimum", ">"), numberHint(schema, "exclusiveMaximum", "<"));
  hints.push(numberHint(schema, "minLength", "min length"), numberHint(schema, "maxLength", "max length"));
  hints.push(numberHint(schema, "minItems", "min items"), numberHint(schema, "maxItems", "max items"));
  if (typeof schema.pattern === "string") hints.push(`pattern: ${clip(schema.pattern, MAX_HINT)}`);
  if (Array.isArray(schema.examples) && schema.examples.length > 0)
    hints.push(`e.g. ${json(schema.examples[0])}`);
  if (schema.deprecated === true) hints.push("deprecated");
  return hints.filter((hint): hint is string => hint !== undefined);
}

const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/**
 * The doc text of a property: its description (or else its title, unless that only repeats the key, as
 * pydantic's generated titles do) and its hints in parentheses.
 */
export function propertyDoc(key: string, schema: JsonSchema, maxDescription: number): string {
  const described = typeof schema.description === "string" ? schema.description.trim() : "";
  const title = typeof schema.title === "string" ? schema.title.trim() : "";
  const text = described || (letters(title) === letters(key) ? "" : title);
  const hints = schemaHints(schema);
  const suffix = hints.length > 0 ? `(${hints.join(", ")})` : "";
  const main = clip(text, maxDescription);
  return main && suffix ? `${main}${main.includes("\n") ? "\n" : " "}${suffix}` : main || suffix;
}
