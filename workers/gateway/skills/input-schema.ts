import { MAX_SKILL_SCHEMA_CHARS } from "../../../shared/contract/skills";

const MAX_DEPTH = 64;

/** What is wrong with a skill's inputSchema, or undefined: a plain JSON object describing an object. */
export function inputSchemaProblem(schema: Record<string, unknown>): string | undefined {
  const json = jsonSchemaProblem(schema, "inputSchema");
  if (json) return json;
  if ("type" in schema && schema.type !== "object")
    return `inputSchema.type: must be "object" (a skill's arguments are one object), not ${JSON.stringify(schema.type)}`;
  const { properties, required } = schema;
  if (properties !== undefined) {
    if (!isPlainObject(properties)) return "inputSchema.properties: must be an object";
    for (const [key, value] of Object.entries(properties)) {
      if (!isPlainObject(value)) return `inputSchema.properties.${key}: must be an object (a JSON Schema)`;
    }
  }
  if (required !== undefined && !(Array.isArray(required) && required.every((r) => typeof r === "string")))
    return "inputSchema.required: must be an array of strings";
  return undefined;
}

/** What is wrong with a skill's outputSchema (any JSON Schema of what its code returns), or undefined. */
export function outputSchemaProblem(schema: Record<string, unknown>): string | undefined {
  const json = jsonSchemaProblem(schema, "outputSchema");
  if (json) return json;
  if ("type" in schema && !isTypeKeyword(schema.type))
    return `outputSchema.type: must be a JSON Schema type name or a list of them, not ${JSON.stringify(schema.type).slice(0, 100)}`;
  if (schema.properties !== undefined && !isPlainObject(schema.properties))
    return "outputSchema.properties: must be an object";
  return undefined;
}

/** Only JSON values, and at most MAX_SKILL_SCHEMA_CHARS of JSON text. */
function jsonSchemaProblem(schema: Record<string, unknown>, field: string): string | undefined {
  const shape = jsonShapeProblem(schema, field);
  if (shape) return shape;
  const chars = JSON.stringify(schema).length;
  if (chars > MAX_SKILL_SCHEMA_CHARS)
    return `${field}: ${chars} characters of JSON, more than the ${MAX_SKILL_SCHEMA_CHARS} allowed`;
  return undefined;
}

const TYPE_NAMES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);

function isTypeKeyword(type: unknown): boolean {
  const names = Array.isArray(type) ? type : [type];
  return names.length > 0 && names.every((t) => typeof t === "string" && TYPE_NAMES.has(t));
}

/**
 * Walks without recursion (a deeply nested value must not exhaust the stack): only JSON values,
 * nested at most MAX_DEPTH deep, and no more nodes than the JSON could hold characters.
 */
function jsonShapeProblem(root: unknown, field: string): string | undefined {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [
    { value: root, depth: 1, path: field },
  ];
  let nodes = 0;
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (++nodes > MAX_SKILL_SCHEMA_CHARS)
      return `${field}: more than the ${MAX_SKILL_SCHEMA_CHARS} characters of JSON allowed`;
    const { value, depth, path } = item;
    if (value === null || typeof value === "string" || typeof value === "boolean") continue;
    if (typeof value === "number") {
      if (!Number.isFinite(value)) return `${path}: ${value} is not a JSON number`;
      continue;
    }
    const entries = Array.isArray(value)
      ? Array.from(value, (child, i) => [String(i), child] as const)
      : isPlainObject(value)
        ? Object.entries(value)
        : undefined;
    if (!entries) return `${path}: not a JSON value (${typeof value})`;
    if (depth > MAX_DEPTH) return `${path}: nested more than ${MAX_DEPTH} levels deep`;
    for (const [key, child] of entries)
      stack.push({ value: child, depth: depth + 1, path: `${path}.${key}` });
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
