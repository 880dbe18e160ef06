import { type OutputUnit, type Schema, type SchemaDraft, Validator } from "@cfworker/json-schema";
import type { CatalogTool, JsonSchema } from "../../../shared/contract/tools";
import { boundedSchema } from "./schema-bounds";

const validators = new Map<string, Validator>();
/** Keywords whose failure only says that something below failed; the leaf errors say what. */
const SUMMARY_KEYWORDS = new Set([
  "properties",
  "items",
  "prefixItems",
  "allOf",
  "$ref",
  "additionalProperties",
  "dependentSchemas",
  "if",
  "then",
  "else",
]);

function draftOf(schema: JsonSchema): SchemaDraft {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  if (declared.includes("draft-04")) return "4";
  if (declared.includes("draft-07") || declared.includes("draft-06")) return "7";
  if (declared.includes("2019-09")) return "2019-09";
  return "2020-12";
}

/**
 * Checks arguments against the tool's input schema, without the keywords whose cost the gateway
 * cannot bound (schema-bounds.ts), before the upstream sees them. Returns one line per failing
 * path (`/limit: …`), or none.
 */
export function argumentErrors(tool: CatalogTool, args: unknown): string[] {
  const cacheKey = `${tool.qualifiedName}\u0000${JSON.stringify(tool.inputSchema)}`;
  let validator = validators.get(cacheKey);
  if (!validator) {
    validator = new Validator(boundedSchema(tool.inputSchema) as Schema, draftOf(tool.inputSchema), false);
    if (validators.size > 500) validators.clear();
    validators.set(cacheKey, validator);
  }
  const result = validator.validate(args);
  if (result.valid) return [];
  const leaves = result.errors.filter((e: OutputUnit) => !SUMMARY_KEYWORDS.has(e.keyword));
  const lines = (leaves.length ? leaves : result.errors).map(
    (e: OutputUnit) => `${pathOf(e.instanceLocation)}: ${e.error}`,
  );
  return [...new Set(lines)].slice(0, 10);
}

function pathOf(location: string): string {
  const path = location.replace(/^#/, "");
  return path === "" ? "(arguments)" : path;
}
