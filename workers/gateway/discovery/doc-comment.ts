import type { JsonSchema } from "../../../shared/contract/tools";
import { clip, isRecord } from "./ts-syntax";

/** Longest default, format or example kept in a hint. */
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

/** Longest pattern kept (longer ones are cut, and the schema comes with the definition). */
const MAX_PATTERN = 200;
/** Parts (array items, union members) documented under a property, and how deep. */
const MAX_PARTS = 8;
const MAX_PART_DEPTH = 2;

/**
 * Bounds at or past ±(2^53 − 1) (`Number.MAX_SAFE_INTEGER`: zod's default for any integer) say nothing a
 * reader needs, and are left out.
 */
function meaningfulBound(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && Math.abs(value) < Number.MAX_SAFE_INTEGER;
}

/** What a doc comment says about a schema, and whether it says all of it (nothing was cut). */
export interface SchemaDoc {
  text: string;
  complete: boolean;
}

class Notes {
  complete = true;
  clip(text: string, max: number): string {
    if (text.length > max) this.complete = false;
    return clip(text, max);
  }
  json(value: unknown): string {
    return this.clip(JSON.stringify(value) ?? String(value), MAX_HINT);
  }
}

function bound(schema: JsonSchema, key: string, label: string): string | undefined {
  const value = schema[key];
  return meaningfulBound(value) ? `${label} ${value}` : undefined;
}

/**
 * Short notes about a schema's constraints: integer, default, format, bounds (draft-04's boolean
 * `exclusiveMinimum`/`exclusiveMaximum` too), multiple of, lengths, item and property counts, unique
 * items, pattern, example, deprecation. No bound at or past ±MAX_SAFE_INTEGER.
 */
function hintsOf(schema: JsonSchema, notes: Notes): string[] {
  const hints: (string | undefined)[] = [];
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("integer")) hints.push("integer");
  if ("default" in schema) hints.push(`default: ${notes.json(schema.default)}`);
  if (typeof schema.format === "string") hints.push(`format: ${notes.clip(schema.format, MAX_HINT)}`);
  const above = schema.exclusiveMinimum === true ? ">" : "min";
  const below = schema.exclusiveMaximum === true ? "<" : "max";
  hints.push(bound(schema, "minimum", above), bound(schema, "maximum", below));
  hints.push(bound(schema, "exclusiveMinimum", ">"), bound(schema, "exclusiveMaximum", "<"));
  hints.push(bound(schema, "multipleOf", "multiple of"));
  hints.push(bound(schema, "minLength", "min length"), bound(schema, "maxLength", "max length"));
  hints.push(bound(schema, "minItems", "min items"), bound(schema, "maxItems", "max items"));
  if (schema.uniqueItems === true) hints.push("unique items");
  hints.push(
    bound(schema, "minProperties", "min properties"),
    bound(schema, "maxProperties", "max properties"),
  );
  if (typeof schema.pattern === "string") hints.push(`pattern: ${notes.clip(schema.pattern, MAX_PATTERN)}`);
  if (Array.isArray(schema.examples) && schema.examples.length > 0)
    hints.push(`e.g. ${clip(JSON.stringify(schema.examples[0]) ?? "", MAX_HINT)}`);
  if (schema.deprecated === true) hints.push("deprecated");
  return hints.filter((hint): hint is string => hint !== undefined);
}

const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** A schema's description (or else its title, unless that only repeats `key`) and its hints in parentheses. */
function ownDoc(key: string, schema: JsonSchema, maxDescription: number, notes: Notes): string {
  const described = typeof schema.description === "string" ? schema.description.trim() : "";
  const title = typeof schema.title === "string" ? schema.title.trim() : "";
  const text = described || (letters(title) === letters(key) ? "" : title);
  const hints = hintsOf(schema, notes);
  const suffix = hints.length > 0 ? `(${hints.join(", ")})` : "";
  const main = notes.clip(text, maxDescription);
  return main && suffix ? `${main}${main.includes("\n") ? "\n" : " "}${suffix}` : main || suffix;
}

/**
 * Lines for what a property holds that has no doc comment of its own in the declaration: its array
 * items (`Each: …`) and its anyOf/oneOf alternatives (`string: …`), when they say something.
 */
function partLines(schema: JsonSchema, maxDescription: number, notes: Notes, depth: number): string[] {
  const parts: [string, unknown][] = [];
  if (isRecord(schema.items)) parts.push(["Each", schema.items]);
  for (const key of ["anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list))
      for (const member of list)
        if (isRecord(member))
          parts.push([typeof member.type === "string" ? member.type : "Alternative", member]);
  }
  const lines: string[] = [];
  for (const [label, part] of parts) {
    if (!isRecord(part)) continue;
    if (lines.length >= MAX_PARTS || depth >= MAX_PART_DEPTH) {
      notes.complete = false;
      break;
    }
    const own = ownDoc("", part, maxDescription, notes);
    if (own) lines.push(`${label}: ${own.replaceAll("\n", " ")}`);
    lines.push(...partLines(part, maxDescription, notes, depth + 1));
  }
  return lines;
}

/**
 * The doc text of a property: its description (or else its title, unless that only repeats the key, as
 * pydantic's generated titles do), its hints in parentheses, then a line for each of its array items
 * and anyOf/oneOf alternatives that says something. `complete` is false when something was cut.
 */
export function propertyDoc(key: string, schema: JsonSchema, maxDescription: number): SchemaDoc {
  const notes = new Notes();
  const own = ownDoc(key, schema, maxDescription, notes);
  const text = [own, ...partLines(schema, maxDescription, notes, 0)].filter(Boolean).join("\n");
  return { text, complete: notes.complete };
}
