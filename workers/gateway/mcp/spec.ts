import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type SpecTypeName,
  type SpecTypes,
  specTypeSchemas,
} from "@modelcontextprotocol/server";

/**
 * `value` as the MCP specification's type `name` (the SDK's own schemas), or undefined when it is
 * not one. For messages the gateway reads before (or beside) the SDK server.
 */
export function asSpec<K extends SpecTypeName>(name: K, value: unknown): SpecTypes[K] | undefined {
  const checked = specTypeSchemas[name]["~standard"].validate(value);
  return checked.issues === undefined ? checked.value : undefined;
}

/**
 * The client capabilities an MCP 2026-07-28 request declares in its `_meta` envelope (the SDK's
 * `ctx.mcpReq.envelope`, or the raw `_meta` of its body); undefined when absent or malformed.
 */
export function declaredCapabilities(meta: unknown): ClientCapabilities | undefined {
  const envelope = meta as Record<string, unknown> | undefined;
  return asSpec("ClientCapabilities", envelope?.[CLIENT_CAPABILITIES_META_KEY]);
}
