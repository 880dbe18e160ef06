import { z } from "zod";
import { IsoTime } from "./time";

/**
 * Skills (contract "Skills"): a team's named, versioned code. The shapes here are the one
 * description used by the store, the REST routes, the bridge and the sandbox runtime.
 */
export const SKILL_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** `skills.save/list/get/delete` are methods, and a few names mean something to JS itself. */
export const RESERVED_SKILL_NAMES = [
  "save",
  "list",
  "get",
  "delete",
  "constructor",
  "then",
  "prototype",
] as const;
export const MAX_SKILL_DESCRIPTION = 1_024;
/** JSON text of one skill's inputSchema, and of its outputSchema */
export const MAX_SKILL_SCHEMA_CHARS = 100_000;
/** skills one execution may load (named in its code, and the skills they name, transitively) */
export const MAX_SKILLS_PER_EXECUTION = 50;
/** nested skill calls: a → b → c … */
export const MAX_SKILL_DEPTH = 16;

export const SkillName = z
  .string()
  .regex(SKILL_NAME, { error: "a skill name matches ^[a-z][a-z0-9_]{0,63}$ (lowercase letters, digits, _)" })
  .refine((name) => !(RESERVED_SKILL_NAMES as readonly string[]).includes(name), {
    error: `a skill may not be named ${RESERVED_SKILL_NAMES.join(", ")}`,
  });

/**
 * The languages a skill's code may be in. TypeScript and JavaScript skills run as modules of the
 * JavaScript runtime (TypeScript compiles JavaScript too); Python skills run in the Python
 * interpreter of the Python code that calls them. Records saved before skills had a language are
 * TypeScript.
 */
export const SKILL_LANGUAGES = ["typescript", "javascript", "python"] as const;
export type SkillLanguage = (typeof SKILL_LANGUAGES)[number];
export const SkillLanguage = z.enum(SKILL_LANGUAGES);
/** What a save without `language` is: the language of `skills.save()`'s caller (Python says so), else this. */
export const DEFAULT_SKILL_LANGUAGE: SkillLanguage = "typescript";

/**
 * What a save sends (PUT /v1/skills/{name} body; skills.save() adds `name`). Code size:
 * SKILL_MAX_CODE_CHARS. `language`: DEFAULT_SKILL_LANGUAGE when left out.
 */
export const SkillInput = z
  .object({
    description: z.string().trim().min(1, { error: "description is required" }).max(MAX_SKILL_DESCRIPTION),
    code: z.string().min(1, { error: "code is required" }),
    language: SkillLanguage.optional(),
    inputSchema: z.record(z.string(), z.unknown()).optional(),
    /** JSON Schema of what the code returns: shown in discovery's signature, not checked at run time */
    outputSchema: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type SkillInput = z.infer<typeof SkillInput>;

export const SkillSave = SkillInput.extend({ name: SkillName }).strict();
export type SkillSave = z.infer<typeof SkillSave>;

/** One stored version. */
export const SkillRecord = z.object({
  name: z.string(),
  version: z.number().int().positive(),
  description: z.string(),
  code: z.string(),
  language: SkillLanguage,
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  /** when this version was saved */
  updatedAt: IsoTime,
});
export type SkillRecord = z.infer<typeof SkillRecord>;

/** A skill's latest version without its code (listing, discovery). */
export type SkillSummary = Omit<SkillRecord, "code">;
