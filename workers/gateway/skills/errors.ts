export type SkillErrorName = "ValidationError" | "LimitError" | "SyntaxError";

/** A save refused for what was sent; `line`/`column` (of the skill's code) for a SyntaxError. */
export class SkillError extends Error {
  constructor(
    override readonly name: SkillErrorName,
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}
