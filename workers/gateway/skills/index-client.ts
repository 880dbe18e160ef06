import type { SkillIndexApi } from "../../../durable-objects/skills/answers";
import type { GatewayEnv } from "../env";

/**
 * The team's SkillIndex object. (The generated stub type turns SkillSummary's `inputSchema` values
 * into something narrower than `unknown`, so the stub is retyped to the index's own API here, once.)
 */
export function skillIndex(env: GatewayEnv, team: string): SkillIndexApi {
  return env.SKILL_INDEX.get(env.SKILL_INDEX.idFromName(team)) as unknown as SkillIndexApi;
}
