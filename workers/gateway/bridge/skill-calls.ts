import { z } from "zod";
import type { SkillRecord } from "../../../shared/contract/skills";
import type { CatalogTool } from "../../../shared/contract/tools";
import { ToolCallError } from "../discovery/tool-call-error";
import type { RequestContext } from "../request/context";
import { skillTool } from "../skills/catalog";
import { SkillError, SkillStore } from "../skills/store";
import { toolPolicy } from "../teams/policy";
import { argumentErrors } from "./validate";

/** `caller: "python"`: Python's runtime, which runs Python skills itself; else the JavaScript runtime. */
const Call = z
  .object({ name: z.string().max(64), args: z.unknown(), caller: z.literal("python").optional() })
  .strict();
const Named = z.object({ name: z.string().max(64) }).strict();
const Get = Named.extend({ version: z.number().int().positive().optional() }).strict();

/**
 * `skills.*` from code: a skill call's arguments checked against its inputSchema (the skill then
 * runs in the isolate), and save / list / get / delete on the team's store. The caller has counted
 * the call and parsed the payload's JSON text after checking its length.
 */
export class SkillCalls {
  #store: SkillStore | undefined;
  readonly #tools = new Map<string, CatalogTool>();
  /** Skills this execution saved: loaded only from the next execution on. */
  readonly #saved = new Set<string>();

  constructor(
    private readonly ctx: RequestContext,
    private readonly loaded: ReadonlyMap<string, SkillRecord>,
  ) {}

  async call(op: string, payload: unknown): Promise<unknown> {
    switch (op) {
      case "call":
        return this.check(parse(Call, payload, "skills.<name>(args)"));
      case "save": {
        const saved = await this.store((s) => s.save(payload));
        this.#saved.add(saved.name);
        return saved;
      }
      case "list": {
        const allows = await this.policy();
        const skills = await this.store((s) => s.list());
        return skills
          .filter((skill) => allows(`skills.${skill.name}`))
          .map(({ name, description, language, version, updatedAt }) => ({
            name,
            description,
            language,
            version,
            updatedAt,
          }));
      }
      case "get": {
        const { name, version } = parse(Get, payload, "skills.get(name, version?)");
        const record = (await this.policy())(`skills.${name}`)
          ? await this.store((s) => s.get(name, version))
          : null;
        if (!record) {
          const which = version === undefined ? "" : ` version ${version}`;
          throw new ToolCallError("NotFoundError", `skills.get: no skill "${name}"${which}`);
        }
        return record;
      }
      case "delete":
        return this.store((s) => s.delete(parse(Named, payload, "skills.delete(name)").name));
      default:
        throw new ToolCallError("TypeError", `skills: unknown operation "${op.slice(0, 40)}"`);
    }
  }

  private check({ name, args, caller }: z.infer<typeof Call>): null {
    const record = this.loaded.get(name);
    if (!record) {
      if (this.#saved.has(name)) {
        throw new ToolCallError(
          "SkillNotLoadedError",
          `skills.${name} was saved by this execution; skills are loaded when an execution starts: call it from the next one`,
        );
      }
      throw new ToolCallError(
        "UnknownSkillError",
        `skills.${name}: this team has no skill named "${name}" (skills.list() shows them)`,
      );
    }
    if (record.language === "python" && caller !== "python") {
      throw new ToolCallError(
        "SkillLanguageError",
        `skills.${name} is a Python skill: only Python code (execute with language "python") can call it, not TypeScript or JavaScript`,
      );
    }
    let tool = this.#tools.get(name);
    if (!tool) {
      tool = skillTool(record);
      this.#tools.set(name, tool);
    }
    const problems = argumentErrors(tool, args);
    if (problems.length) {
      throw new ToolCallError(
        "ValidationError",
        `Invalid arguments for skills.${name}:\n${problems.map((p) => `  ${p}`).join("\n")}`,
      );
    }
    return null;
  }

  private async store<T>(work: (store: SkillStore) => Promise<T>): Promise<T> {
    this.#store ??= new SkillStore(this.ctx.env, this.ctx.team, this.ctx.config.skills);
    try {
      return await work(this.#store);
    } catch (err) {
      if (err instanceof SkillError) throw new ToolCallError(err.name, err.message);
      throw err;
    }
  }

  private async policy(): Promise<(name: string) => boolean> {
    return toolPolicy(this.ctx.teamRecord?.allow, this.ctx.teamRecord?.deny);
  }
}

function parse<T>(schema: z.ZodType<T>, payload: unknown, call: string): T {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new ToolCallError("TypeError", `${call}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
