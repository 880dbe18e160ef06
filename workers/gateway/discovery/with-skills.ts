import { sha256 } from "../../../shared/hash";
import { log } from "../../../shared/log";
import type { RequestContext } from "../request/context";
import { SKILLS_SERVER, skillTool } from "../skills/catalog";
import { SkillStore } from "../skills/store";
import { applyPolicy, policyRefusal } from "../teams/policy";
import type { Catalog } from "../upstreams";

/**
 * The catalog discovery searches: the upstream tools plus the team's skills as `skills.<name>`,
 * ranked together, under the same allow/deny lists. Skills that cannot be read leave a warning,
 * not a failed search.
 */
export async function withSkills(catalog: Catalog, ctx: RequestContext): Promise<Catalog> {
  try {
    const skills = await new SkillStore(ctx.env, ctx.team, ctx.config.skills).list();
    const refusal = policyRefusal(ctx.teamRecord?.allow, ctx.teamRecord?.deny);
    const { visible: tools, notAllowed } = applyPolicy(skills.map(skillTool), refusal);
    const refused = [...(catalog.notAllowed ?? []), ...notAllowed];
    const listed = catalog.version
      ? `${catalog.version} skills:${await sha256(JSON.stringify(tools))}`
      : undefined;
    return {
      ...catalog,
      tools: [...catalog.tools, ...tools],
      ...(listed ? { version: listed } : {}),
      ...(refused.length ? { notAllowed: refused } : {}),
      servers: [
        ...catalog.servers,
        { name: SKILLS_SERVER, state: "ok", tools: tools.length, description: "This team's saved skills" },
      ],
    };
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).slice(0, 300);
    log("warn", "skills not listed in discovery", { requestId: ctx.requestId, error: reason });
    return { ...catalog, problems: [...(catalog.problems ?? []), `skills: unavailable (${reason})`] };
  }
}
