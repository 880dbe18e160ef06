import type { SkillLanguage, SkillSummary } from "../../shared/contract/skills";

/** What a save tells the index before its code is in R2. */
export interface VersionMeta {
  description: string;
  /** the inputSchema's JSON text */
  inputSchema?: string;
  /** the outputSchema's JSON text */
  outputSchema?: string;
  language: SkillLanguage;
  codeChars: number;
  /** ms since epoch (the index answers it as ISO time) */
  updatedAt: number;
}

/** A new version's number, or how many skills the team has when one more would pass the cap. */
export type Reserved = { ok: true; version: number } | { ok: false; skills: number };

/**
 * The index's methods as callers see them. The generated stub type loses the `unknown` values of
 * `inputSchema` and `outputSchema`, so workers/gateway/skills/index-client.ts retypes the stub to this, once.
 */
export interface SkillIndexApi {
  reserve(name: string, meta: VersionMeta, maxSkills: number): Promise<Reserved>;
  commit(name: string, version: number): Promise<boolean>;
  abort(name: string, version: number): Promise<void>;
  list(): Promise<SkillSummary[]>;
  latest(names: string[]): Promise<SkillSummary[]>;
  get(name: string, version?: number): Promise<SkillSummary | null>;
  remove(name: string): Promise<number[]>;
}
