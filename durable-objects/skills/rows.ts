import { DEFAULT_SKILL_LANGUAGE, type SkillLanguage, type SkillSummary } from "../../shared/contract/skills";
import { isoTime } from "../../shared/contract/time";

/** One version as the index keeps it; `ready` 0 while its R2 object is being written. */
export type VersionRow = {
  name: string;
  version: number;
  description: string;
  input_schema: string | null;
  output_schema: string | null;
  /** NULL in rows saved before skills had a language: TypeScript */
  language: SkillLanguage | null;
  code_chars: number;
  updated_at: number;
  ready: number;
};

export const SUMMARY_COLUMNS =
  "name, version, description, input_schema, output_schema, language, updated_at";

/** Columns added after the first release, with their type: objects made before get them (NULL in old rows). */
export const ADDED_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ["output_schema", "TEXT"],
  ["language", "TEXT"],
];

export const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS versions (
    name TEXT NOT NULL, version INTEGER NOT NULL, description TEXT NOT NULL, input_schema TEXT,
    code_chars INTEGER NOT NULL, updated_at INTEGER NOT NULL, ready INTEGER NOT NULL,
    reserved_at INTEGER NOT NULL, PRIMARY KEY (name, version))`,
  "CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, last_version INTEGER NOT NULL)",
];

export function toSummary(row: Omit<VersionRow, "code_chars" | "ready">): SkillSummary {
  return {
    name: row.name,
    version: row.version,
    description: row.description,
    language: row.language ?? DEFAULT_SKILL_LANGUAGE,
    ...(row.input_schema !== null ? { inputSchema: JSON.parse(row.input_schema) } : {}),
    ...(row.output_schema !== null ? { outputSchema: JSON.parse(row.output_schema) } : {}),
    updatedAt: isoTime(row.updated_at),
  };
}
