import { SkillRecord } from "../../../shared/contract/skills";

/** R2 key of one version: the whole SkillRecord as JSON (docs/storage-schema.md). */
export const skillKey = (team: string, name: string, version: number) =>
  `skills/v1/${team}/${name}/${version}.json`;

export async function writeSkill(bucket: R2Bucket, team: string, record: SkillRecord): Promise<void> {
  await bucket.put(skillKey(team, record.name, record.version), JSON.stringify(record), {
    httpMetadata: { contentType: "application/json" },
  });
}

/** The stored version, or null when there is no object (deleted meanwhile) or it is not a SkillRecord. */
export async function readSkill(bucket: R2Bucket, key: string): Promise<SkillRecord | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  const parsed = SkillRecord.safeParse(await object.json());
  return parsed.success ? parsed.data : null;
}
