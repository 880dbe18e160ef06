import type { JsonSchema } from "../../../shared/contract/tools";
import { clip } from "../discovery/ts-syntax";

/** How deep a tool's schema keeps an operation's (resolved) schema; deeper parts become `{}`. */
const MAX_DEPTH = 10;
/** Schema objects kept per schema: GitHub's resolved schemas repeat whole objects hundreds of times. */
const MAX_NODES = 400;
const DESCRIPTION_CHARS = 200;
/** OpenAPI-only keywords with no meaning to a caller's JSON Schema. */
const DROPPED = new Set(["xml", "externalDocs", "example", "examples", "discriminator", "x-examples"]);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);
/** Keywords whose value is data, not a schema. */
const DATA = new Set(["enum", "const", "default", "required", "type"]);
/** Swagger 2.0 / OpenAPI parameter fields that are JSON Schema keywords. */
const PARAMETER_KEYWORDS = [
  "type",
  "format",
  "items",
  "enum",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "multipleOf",
];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The description's named schemas (`components.schemas`, `definitions`), by their resolved objects. */
export type SchemaNames = WeakMap<object, string>;

export function schemaNames(doc: Obj): SchemaNames {
  const names: SchemaNames = new WeakMap();
  const components = isObj(doc.components) ? doc.components.schemas : undefined;
  for (const table of [components, doc.definitions]) {
    if (!isObj(table)) continue;
    for (const [name, schema] of Object.entries(table)) if (isObj(schema)) names.set(schema, name);
  }
  return names;
}

/**
 * A resolved OpenAPI schema (circular references are cycles of objects) as a plain, acyclic JSON
 * Schema of bounded size: descriptions clipped, OpenAPI-only keywords dropped, 3.0's `nullable` as
 * a `null` type, a schema met again inside itself replaced by `{}` naming it, parts past the
 * bounds replaced by `{}`.
 */
export function compactSchema(schema: Obj, names: SchemaNames): JsonSchema {
  let nodes = 0;
  const inside = new Set<object>();
  const walk = (value: Obj, depth: number): Obj => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return {};
    if (inside.has(value)) return { description: `(recursive: ${clip(names.get(value) ?? "itself", 60)})` };
    inside.add(value);
    try {
      return copy(value, depth);
    } finally {
      inside.delete(value);
    }
  };
  const copy = (value: Obj, depth: number): Obj => {
    const out: Obj = {};
    for (const [key, child] of Object.entries(value)) {
      if (DROPPED.has(key) || key.startsWith("x-") || key === "nullable") continue;
      if (key === "description" && typeof child === "string") out[key] = clip(child, DESCRIPTION_CHARS);
      else if (DATA.has(key) || !(isObj(child) || Array.isArray(child))) out[key] = child;
      else if (SCHEMA_MAPS.has(key) && isObj(child)) {
        const map: Obj = {};
        for (const [name, sub] of Object.entries(child)) map[name] = isObj(sub) ? walk(sub, depth + 1) : sub;
        out[key] = map;
      } else if (Array.isArray(child)) out[key] = child.map((c) => (isObj(c) ? walk(c, depth + 1) : c));
      else out[key] = walk(child, depth + 1);
    }
    if (value.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
    return out;
  };
  return walk(schema, 0);
}

/** A path/query/header (or Swagger formData) parameter's schema, with its description. */
export function parameterSchema(p: Obj, v2: boolean, names: SchemaNames): JsonSchema {
  let schema: Obj;
  if (!v2 && isObj(p.schema)) schema = compactSchema(p.schema, names);
  else if (!v2 && isObj(p.content)) {
    const media = Object.values(p.content)[0];
    schema = isObj(media) && isObj(media.schema) ? compactSchema(media.schema, names) : {};
  } else {
    const picked: Obj = {};
    for (const key of PARAMETER_KEYWORDS) if (p[key] !== undefined) picked[key] = p[key];
    if (picked.type === "file") picked.type = "string";
    schema = compactSchema(picked, names);
  }
  const description = typeof p.description === "string" ? p.description.trim() : "";
  if (description && schema.description === undefined)
    schema.description = clip(description, DESCRIPTION_CHARS);
  if (p.deprecated === true) schema.deprecated = true;
  return schema;
}
