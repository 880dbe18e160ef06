import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { SKILL_NAME } from "../../../shared/contract/skills";
import type { RequestScope } from "../operations/scope";
import { renderSkillMd } from "../skills/skill-md";
import { SkillStore } from "../skills/store";
import { toolPolicy } from "../teams/policy";
import { loadTeam } from "../teams/resolve";

const RESOURCE_NOT_FOUND = -32002;

async function visible(scope: RequestScope): Promise<(name: string) => boolean> {
  const team = await loadTeam(scope.env, scope.team);
  const allows = toolPolicy(team?.allow, team?.deny);
  return (name) => allows(`skills.${name}`);
}

const store = (scope: RequestScope) => new SkillStore(scope.env, scope.team, scope.config.skills);

/** The team's skills as resources `skill://<name>` (SKILL.md), under its allow/deny lists. */
export async function skillResources(scope: RequestScope) {
  const [skills, allowed] = await Promise.all([store(scope).list(), visible(scope)]);
  return skills
    .filter((skill) => allowed(skill.name))
    .map((skill) => ({
      uri: `skill://${skill.name}`,
      name: `skills.${skill.name}`,
      description: skill.description,
      mimeType: "text/markdown",
      annotations: { lastModified: new Date(skill.updatedAt).toISOString() },
    }));
}

export async function readSkill(scope: RequestScope, uri: string) {
  const name = uri.slice("skill://".length);
  const record = SKILL_NAME.test(name) && (await visible(scope))(name) ? await store(scope).get(name) : null;
  if (!record) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: no skill "${name.slice(0, 64)}"`);
  return { uri, mimeType: "text/markdown", text: renderSkillMd(record) };
}
