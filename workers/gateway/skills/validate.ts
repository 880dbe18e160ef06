import { z } from "zod";
import { SkillSave } from "../../../shared/contract/skills";
import { compileAgentCode } from "../../sandbox/compile";
import { SkillError } from "./errors";
import { inputSchemaProblem } from "./input-schema";

/** A save's input checked as contract "Skills" says, or a SkillError naming the field and problem. */
export function validateSave(input: unknown, maxCodeChars: number): SkillSave {
  const parsed = SkillSave.safeParse(input);
  const label = `skill ${nameOf(input) ?? "(unnamed)"}`;
  if (!parsed.success) throw new SkillError("ValidationError", `${label}: ${z.prettifyError(parsed.error)}`);
  const skill = parsed.data;
  if (skill.code.length > maxCodeChars) {
    throw new SkillError(
      "LimitError",
      `${label}: code is ${skill.code.length} characters, more than the ${maxCodeChars} allowed (SKILL_MAX_CODE_CHARS)`,
    );
  }
  const problem = skill.inputSchema && inputSchemaProblem(skill.inputSchema);
  if (problem) throw new SkillError("ValidationError", `${label}: ${problem}`);
  const compiled = compileAgentCode(skill.code, "typescript", "skill");
  if (!compiled.ok) {
    const { name, line, column } = compiled.error;
    const message = compiled.error.message.replace(/ \(line \d+, column \d+\)$/, "");
    const at =
      line === undefined ? "" : ` at line ${line}${column === undefined ? "" : `, column ${column}`}`;
    throw new SkillError("SyntaxError", `${label}: ${name}${at}: ${message}`, line, column);
  }
  return skill;
}

function nameOf(input: unknown): string | undefined {
  const name = typeof input === "object" && input !== null ? (input as { name?: unknown }).name : undefined;
  return typeof name === "string" && name.length <= 64 ? JSON.stringify(name).slice(1, -1) : undefined;
}
