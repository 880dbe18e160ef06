import type { SkillIndexApi } from "../../../durable-objects/skills/answers";
import { SKILL_NAME, type SkillRecord, type SkillSummary } from "../../../shared/contract/skills";
import type { GatewayEnv } from "../env";
import { cached, cacheKey, forget, remember } from "./cache";
import { SkillError } from "./errors";
import { skillIndex } from "./index-client";
import { readSkill, type StoredSkill, skillKey, writeSkill } from "./objects";
import { validateSave } from "./validate";

export { SkillError } from "./errors";

export interface SkillLimits {
  /** SKILL_MAX_CODE_CHARS */
  maxCodeChars: number;
  /** SKILL_MAX_PER_TEAM */
  maxSkills: number;
}

export interface SkillStoreHooks {
  /** called with the key of every object read from R2 (not for cache hits) */
  onR2Read?: (key: string) => void;
}

/**
 * One team's skills: versions and metadata in the team's SkillIndex object, each version's code in
 * R2 under its own key, recent versions cached in the isolate (docs/storage-schema.md).
 */
export class SkillStore {
  private readonly index: SkillIndexApi;

  constructor(
    private readonly env: GatewayEnv,
    private readonly team: string,
    private readonly limits: SkillLimits,
    private readonly hooks: SkillStoreHooks = {},
  ) {
    this.index = skillIndex(env, team);
  }

  /** Stores a new version; a SkillError when the input, its code or the team's count is refused. */
  async save(input: unknown): Promise<{ name: string; version: number }> {
    const { name, description, code, language, inputSchema, outputSchema } = validateSave(
      input,
      this.limits.maxCodeChars,
    );
    const updatedAt = Date.now();
    const meta = {
      description,
      language,
      ...(inputSchema ? { inputSchema: JSON.stringify(inputSchema) } : {}),
      ...(outputSchema ? { outputSchema: JSON.stringify(outputSchema) } : {}),
      codeChars: code.length,
      updatedAt,
    };
    const reserved = await this.index.reserve(name, meta, this.limits.maxSkills);
    if (!reserved.ok) {
      throw new SkillError(
        "LimitError",
        `skill ${name}: the team has ${reserved.skills} skills, the most SKILL_MAX_PER_TEAM (${this.limits.maxSkills}) allows; delete one first`,
      );
    }
    const { version } = reserved;
    const record: StoredSkill = {
      name,
      version,
      description,
      code,
      language,
      ...(inputSchema && { inputSchema }),
      ...(outputSchema && { outputSchema }),
      updatedAt,
    };
    try {
      await writeSkill(this.env.SKILLS, this.team, record);
    } catch (err) {
      // a failed abort leaves a reservation that expires on its own
      await this.index.abort(name, version).catch(() => undefined);
      throw err;
    }
    if (!(await this.index.commit(name, version))) {
      await this.env.SKILLS.delete(skillKey(this.team, name, version));
      throw new Error(`skill ${name} v${version}: the save took too long and was dropped; save again`);
    }
    return { name, version };
  }

  /** The latest version of every skill, by name. */
  list(): Promise<SkillSummary[]> {
    return this.index.list();
  }

  /** The version asked for (default: the latest), or null. */
  async get(name: string, version?: number): Promise<SkillRecord | null> {
    if (!SKILL_NAME.test(name) || (version !== undefined && !(Number.isSafeInteger(version) && version > 0)))
      return null;
    const summary = await this.index.get(name, version);
    return summary && this.withCode(summary);
  }

  /** The latest version of each of `names` that exists: one index call, R2 only for versions not cached. */
  async load(names: string[]): Promise<Map<string, SkillRecord>> {
    const wanted = [...new Set(names)].filter((n) => SKILL_NAME.test(n));
    const summaries = wanted.length ? await this.index.latest(wanted) : [];
    const records = await Promise.all(summaries.map((s) => this.withCode(s)));
    return new Map(records.flatMap((r) => (r ? [[r.name, r] as const] : [])));
  }

  /** Deletes every version; false when there was none. */
  async delete(name: string): Promise<boolean> {
    if (!SKILL_NAME.test(name)) return false;
    const versions = await this.index.remove(name);
    if (versions.length === 0) return false;
    await this.env.SKILLS.delete(versions.map((v) => skillKey(this.team, name, v)));
    for (const v of versions) forget(cacheKey(this.team, name, v));
    return true;
  }

  private async withCode(summary: SkillSummary): Promise<SkillRecord | null> {
    const key = cacheKey(this.team, summary.name, summary.version);
    let stored = cached(key);
    if (!stored) {
      const r2Key = skillKey(this.team, summary.name, summary.version);
      this.hooks.onR2Read?.(r2Key);
      const read = await readSkill(this.env.SKILLS, r2Key);
      if (!read) return null;
      remember(key, read);
      stored = read;
    }
    return { ...summary, code: stored.code };
  }
}
