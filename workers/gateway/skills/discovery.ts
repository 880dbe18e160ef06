import { log } from "../../../shared/log";
import type { RequestScope } from "../operations/scope";
import { toolPolicy } from "../teams/policy";
import { loadTeam } from "../teams/resolve";
import type { Catalog } from "../upstreams";
import { SKILLS_SERVER, skillTool } from "./catalog";
import { SkillStore } from "./store";

/**
 * The catalog discovery searches: the upstream tools plus the team's skills as `skills.<name>`,
 * ranked together, under the same allow/deny lists. Skills that cannot be read leave a warning,
 * not a failed search.
 */
export async function withSkills(catalog: Catalog, scope: RequestScope): Promise<Catalog> {
  try {
    const [team, skills] = await Promise.all([
      loadTeam(scope.env, scope.team),
      new SkillStore(scope.env, scope.team, scope.config.skills).list(),
    ]);
    const allows = toolPolicy(team?.allow, team?.deny);
    const tools = skills.map(skillTool).filter((tool) => allows(tool.qualifiedName));
    return {
      ...catalog,
      tools: [...catalog.tools, ...tools],
      servers: [
        ...catalog.servers,
        { name: SKILLS_SERVER, state: "ok", tools: tools.length, description: "This team's saved skills" },
      ],
    };
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).slice(0, 300);
    log("warn", "skills not listed in discovery", { requestId: scope.requestId, error: reason });
    return { ...catalog, problems: [...(catalog.problems ?? []), `skills: unavailable (${reason})`] };
  }
}
