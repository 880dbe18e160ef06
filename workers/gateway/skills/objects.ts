import { z } from "zod";
import { SkillLanguage, SkillRecord } from "../../../shared/contract/skills";

/**
 * One version as its R2 object holds it: the SkillRecord with `updatedAt` in ms since epoch; without
 * `language` when it was saved before skills had one (readers take the index's, which says TypeScript).
 */
export const StoredSkill = SkillRecord.extend({ updatedAt: z.number(), language: SkillLanguage.optional() });
export type StoredSkill = z.infer<typeof StoredSkill>;

/** R2 key of one version: the whole StoredSkill as JSON (docs/storage-schema.md). */
export const skillKey = (team: string, name: string, version: number) =>
  `skills/v1/${team}/${name}/${version}.json`;

export async function writeSkill(bucket: R2Bucket, team: string, record: StoredSkill): Promise<void> {
  await bucket.put(skillKey(team, record.name, record.version), JSON.stringify(record), {
    httpMetadata: { contentType: "application/json" },
  });
}

/** The stored version, or null when there is no object (deleted meanwhile) or it is not a StoredSkill. */
export async function readSkill(bucket: R2Bucket, key: string): Promise<StoredSkill | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  const parsed = StoredSkill.safeParse(await object.json());
  return parsed.success ? parsed.data : null;
}
