import { ProtocolError } from "@modelcontextprotocol/server";
import { SKILL_NAME } from "../../../shared/contract/skills";
import type { RequestContext } from "../request/context";
import { renderSkillMd } from "../skills/skill-md";
import { SkillStore } from "../skills/store";
import { toolPolicy } from "../teams/policy";

const RESOURCE_NOT_FOUND = -32002;
const SKILL_MD = "/SKILL.md";

/**
 * A skill's name as the skills extension spells it (Agent Skills names: lowercase letters, digits and
 * single hyphens), `_` → `-`; a gateway name never holds `-`, so the mapping goes both ways.
 */
export const extensionName = (name: string) => name.replaceAll("_", "-");

/** The skill name a `skill://<name>` (or the skills extension's `skill://<ext-name>/SKILL.md`) names. */
export function skillNameOf(uri: string): string | undefined {
  if (!uri.startsWith("skill://")) return undefined;
  const rest = uri.slice("skill://".length);
  return rest.endsWith(SKILL_MD) ? rest.slice(0, -SKILL_MD.length).replaceAll("-", "_") : rest;
}

export const skillStore = (ctx: RequestContext) => new SkillStore(ctx.env, ctx.team, ctx.config.skills);

/** The team's skills that its allow/deny lists let it see (as `skills.<name>`). */
export async function visibleSkills(ctx: RequestContext) {
  const allows = toolPolicy(ctx.teamRecord?.allow, ctx.teamRecord?.deny);
  return (await skillStore(ctx).list()).filter((skill) => allows(`skills.${skill.name}`));
}

/** The team's skills as resources `skill://<name>` (SKILL.md), under its allow/deny lists. */
export async function skillResources(ctx: RequestContext) {
  return (await visibleSkills(ctx)).map((skill) => ({
    uri: `skill://${skill.name}`,
    name: `skills.${skill.name}`,
    description: skill.description,
    mimeType: "text/markdown",
    annotations: { lastModified: skill.updatedAt },
  }));
}

/** A skill's SKILL.md, read as `skill://<name>` or as the skills extension's `skill://<name>/SKILL.md`. */
export async function readSkill(ctx: RequestContext, uri: string) {
  const name = skillNameOf(uri) ?? "";
  const allowed = toolPolicy(ctx.teamRecord?.allow, ctx.teamRecord?.deny)(`skills.${name}`);
  const record = SKILL_NAME.test(name) && allowed ? await skillStore(ctx).get(name) : null;
  if (!record)
    throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: no skill "${name.slice(0, 64)}"`);
  const text = uri.endsWith(SKILL_MD) ? renderSkillMd(record, extensionName(name)) : renderSkillMd(record);
  return { uri, mimeType: "text/markdown", text };
}
