import type { SkillSummary } from "../../../shared/contract/skills";
import type { CatalogTool } from "../../../shared/contract/tools";

/** The server name skills are listed under: `skills.<name>` (so no upstream may be called `skills`). */
export const SKILLS_SERVER = "skills";

const ANY_OBJECT = { type: "object" } as const;

/**
 * A skill as discovery and argument validation see it: a tool of the `skills` server, whose
 * signature resolves to its outputSchema's type when it declares one.
 */
export function skillTool(
  skill: Pick<SkillSummary, "name" | "description" | "language" | "inputSchema" | "outputSchema">,
): CatalogTool {
  return {
    name: skill.name,
    server: SKILLS_SERVER,
    qualifiedName: `${SKILLS_SERVER}.${skill.name}`,
    description: skill.description,
    language: skill.language,
    inputSchema: skill.inputSchema ?? { ...ANY_OBJECT },
    ...(skill.outputSchema ? { outputSchema: skill.outputSchema } : {}),
  };
}
