import type { JsonSchema } from "../../../shared/contract/tools";

/**
 * Keywords left out when the gateway checks arguments against an upstream's input schema. The
 * schema is third-party input and the arguments are the sandbox's: `pattern` and
 * `patternProperties` run the schema's regexes (`^(a+)+$` against 27 `a`s and a `!` took 5 s),
 * `format` runs the validator's own regexes over strings of any length, `uniqueItems` compares
 * every pair of items. The upstream still applies its whole schema; the gateway's check exists to
 * give early, path-precise errors for the rest (types, required, enums, ranges, lengths).
 */
const DROPPED = new Set(["pattern", "patternProperties", "format", "uniqueItems", "propertyNames"]);
/** Without the dropped patternProperties these would refuse names the upstream accepts. */
const NEEDS_PATTERN_PROPERTIES = ["additionalProperties", "unevaluatedProperties"];
const MAX_DEPTH = 64;
const MAX_NODES = 20_000;

/** Keywords whose value maps names (kept as they are) to subschemas. */
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions", "dependentSchemas", "dependencies"]);
/** Keywords whose value is data, not a schema. */
const DATA = new Set(["enum", "const", "default", "examples", "required"]);

/** A copy of `schema` without the keywords above, bounded in depth and size. */
export function boundedSchema(schema: JsonSchema): JsonSchema {
  let nodes = 0;
  const walk = (value: unknown, depth: number): unknown => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return {};
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1));
    if (value === null || typeof value !== "object") return value;
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const hadPatternProperties = "patternProperties" in source;
    for (const [key, child] of Object.entries(source)) {
      if (DROPPED.has(key)) continue;
      if (hadPatternProperties && NEEDS_PATTERN_PROPERTIES.includes(key)) continue;
      if (DATA.has(key)) out[key] = child;
      else if (SCHEMA_MAPS.has(key) && child !== null && typeof child === "object" && !Array.isArray(child)) {
        out[key] = Object.fromEntries(
          Object.entries(child as Record<string, unknown>).map(([name, sub]) => [name, walk(sub, depth + 1)]),
        );
      } else out[key] = walk(child, depth + 1);
    }
    return out;
  };
  return walk(schema, 0) as JsonSchema;
}
