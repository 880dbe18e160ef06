import { ProtocolError } from "@modelcontextprotocol/server";
import { SKILL_NAME } from "../../../shared/contract/skills";
import type { RequestContext } from "../context/request-context";
import { renderSkillMd } from "../skills/skill-md";
import { SkillStore } from "../skills/store";
import { toolPolicy } from "../teams/policy";

const RESOURCE_NOT_FOUND = -32002;

async function visible(ctx: RequestContext): Promise<(name: string) => boolean> {
  const allows = toolPolicy(ctx.teamRecord?.allow, ctx.teamRecord?.deny);
  return (name) => allows(`skills.${name}`);
}

const store = (ctx: RequestContext) => new SkillStore(ctx.env, ctx.team, ctx.config.skills);

/** The team's skills as resources `skill://<name>` (SKILL.md), under its allow/deny lists. */
export async function skillResources(ctx: RequestContext) {
  const [skills, allowed] = await Promise.all([store(ctx).list(), visible(ctx)]);
  return skills
    .filter((skill) => allowed(skill.name))
    .map((skill) => ({
      uri: `skill://${skill.name}`,
      name: `skills.${skill.name}`,
      description: skill.description,
      mimeType: "text/markdown",
      annotations: { lastModified: skill.updatedAt },
    }));
}

export async function readSkill(ctx: RequestContext, uri: string) {
  const name = uri.slice("skill://".length);
  const record = SKILL_NAME.test(name) && (await visible(ctx))(name) ? await store(ctx).get(name) : null;
  if (!record)
    throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: no skill "${name.slice(0, 64)}"`);
  return { uri, mimeType: "text/markdown", text: renderSkillMd(record) };
}
