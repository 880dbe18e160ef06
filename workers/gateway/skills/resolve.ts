import type { IsolateOptions, LoadedSkill } from "../../../shared/contract/sandbox";
import { MAX_SKILLS_PER_EXECUTION, type SkillRecord } from "../../../shared/contract/skills";
import type { RequestContext } from "../request/context";
import { toolPolicy } from "../teams/policy";
import { skillNamesIn } from "./scan";
import { SkillStore } from "./store";

export interface ExecutionSkills {
  loaded: LoadedSkill[];
  missing: string[];
  /** the loaded skills' records, for checking arguments against their inputSchema */
  records: Map<string, SkillRecord>;
}

/**
 * The skills an execution can call: the names its code mentions, and the names those skills'
 * code mentions, transitively, up to MAX_SKILLS_PER_EXECUTION. One index lookup per round and at
 * most one R2 read per skill (SkillStore caches by version). Names the team's allow/deny lists
 * exclude count as missing.
 */
export async function skillsForExecution(ctx: RequestContext, code: string): Promise<ExecutionSkills> {
  const records = new Map<string, SkillRecord>();
  const missing: string[] = [];
  let pending = skillNamesIn(code);
  if (pending.length === 0) return { loaded: [], missing, records };
  const allows = toolPolicy(ctx.teamRecord?.allow, ctx.teamRecord?.deny);
  const store = new SkillStore(ctx.env, ctx.team, ctx.config.skills);
  const seen = new Set(pending);
  while (pending.length > 0) {
    const room = MAX_SKILLS_PER_EXECUTION - records.size;
    const wanted = pending.filter((name) => allows(`skills.${name}`)).slice(0, room);
    missing.push(...pending.filter((name) => !allows(`skills.${name}`)));
    const found = wanted.length ? await store.load(wanted) : new Map<string, SkillRecord>();
    const next: string[] = [];
    for (const name of wanted) {
      const record = found.get(name);
      if (!record) {
        missing.push(name);
        continue;
      }
      records.set(name, record);
      for (const more of skillNamesIn(record.code)) {
        if (!seen.has(more)) {
          seen.add(more);
          next.push(more);
        }
      }
    }
    pending = records.size < MAX_SKILLS_PER_EXECUTION ? next : [];
  }
  const loaded = [...records.values()].map(({ name, version, code, language }) => ({
    name,
    version,
    code,
    language,
  }));
  return { loaded, missing: missing.slice(0, MAX_SKILLS_PER_EXECUTION), records };
}

/**
 * What the sandbox gets of an execution's skills: TypeScript and JavaScript skills as modules of the
 * JavaScript runtime; for Python code, the Python skills' code, which its interpreter runs. A
 * runtime's `missingSkills` are the names it cannot run, whose calls the gateway answers: those the
 * team lacks, and the Python skills (the JavaScript runtime cannot run them: SkillLanguageError).
 */
export function sandboxSkills(
  skills: Pick<ExecutionSkills, "loaded" | "missing"> | undefined,
  language: string,
): { modules: LoadedSkill[] } & Pick<IsolateOptions, "missingSkills" | "pythonSkills"> {
  const loaded = skills?.loaded ?? [];
  const python = loaded.filter((s) => s.language === "python");
  return {
    modules: loaded.filter((s) => s.language !== "python"),
    missingSkills: [...(skills?.missing ?? []), ...python.map((s) => s.name)],
    pythonSkills: language === "python" ? python.map(({ name, code }) => ({ name, code })) : [],
  };
}
