import type { ExecutionError } from "../../shared/contract/execute";
import type { LoadedSkill } from "../../shared/contract/sandbox";
import { compileAgentCode, skillModule } from "./compile";

/** The runtime imports this module: the loaded skills' functions by name. */
export const SKILLS_INDEX_MODULE = "skills.js";

/**
 * Each skill compiled like agent code (TypeScript stripped, guarded, sealed) into its own module,
 * a function of `(args, skills)`, and an index module mapping names to them; `guarded` when one of
 * them imports the guard. `v8Semantics`: compiled for the quickjs engine (compileAgentCode).
 */
export function skillModules(
  skills: readonly LoadedSkill[],
  v8Semantics = false,
): { ok: true; modules: Record<string, string>; guarded: boolean } | { ok: false; error: ExecutionError } {
  const modules: Record<string, string> = {};
  let guarded = false;
  const imports: string[] = [];
  const entries: string[] = [];
  for (const [i, skill] of skills.entries()) {
    const compiled = compileAgentCode(skill.code, "typescript", "skill", v8Semantics);
    if (!compiled.ok) {
      const { name, message } = compiled.error;
      return {
        ok: false,
        error: { name, message: `skills.${skill.name} (version ${skill.version}): ${message}` },
      };
    }
    modules[skillModule(skill.name)] = compiled.module;
    guarded ||= compiled.guarded;
    imports.push(`import s${i} from "./${skillModule(skill.name)}";`);
    entries.push(`${JSON.stringify(skill.name)}: s${i}`);
  }
  modules[SKILLS_INDEX_MODULE] = `${imports.join("\n")}\nexport default { ${entries.join(", ")} };\n`;
  return { ok: true, modules, guarded };
}
