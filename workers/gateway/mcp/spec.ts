import { type SpecTypeName, type SpecTypes, specTypeSchemas } from "@modelcontextprotocol/server";

/**
 * `value` as the MCP specification's type `name` (the SDK's own schemas), or undefined when it is
 * not one. For messages the gateway reads before (or beside) the SDK server.
 */
export function asSpec<K extends SpecTypeName>(name: K, value: unknown): SpecTypes[K] | undefined {
  const checked = specTypeSchemas[name]["~standard"].validate(value);
  return checked.issues === undefined ? checked.value : undefined;
}
