import { z } from "zod";
import type { SkillLanguage } from "./skills";

/** A JSON Schema object as upstream servers send it (validated loosely: it is their document). */
export type JsonSchema = { [key: string]: unknown };

/** One tool as an upstream MCP server lists it (MCP `Tool`, the fields we keep). */
export const UpstreamTool = z.object({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
});
export type UpstreamTool = z.infer<typeof UpstreamTool>;

/** An upstream tool under its qualified name `<server>.<tool>` (tool name unchanged). */
export interface CatalogTool extends UpstreamTool {
  server: string;
  qualifiedName: string;
  /** the upstream's own name of a tool the team renamed (`name` is the team's) */
  upstreamName?: string;
  /** a skill's (`skills.<name>`): what its code is written in */
  language?: SkillLanguage;
}

export const DETAIL_LEVELS = ["name", "summary", "full"] as const;
export type DetailLevel = (typeof DETAIL_LEVELS)[number];

/** Server names: `^[a-z][a-z0-9_-]{0,31}$` (no dot, so a qualified name splits at its first dot). */
export const SERVER_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** How code reaches a tool: `tools.<server>.<jsName>`; characters that are not identifier characters become `_`. */
export function jsIdentifier(name: string): string {
  const mapped = name.replace(/[^A-Za-z0-9_$]/g, "_");
  return /^[0-9]/.test(mapped) ? `_${mapped}` : mapped;
}
