import { z } from "zod";
import { SkillSave } from "../../../shared/contract/skills";
import { compileAgentCode } from "../../sandbox/compile";
import { SkillError } from "./errors";
import { inputSchemaProblem, outputSchemaProblem } from "./input-schema";
import { pythonLine, SKILLS_ARE_TYPESCRIPT } from "./python-code";

/** A save's input checked as contract "Skills" says, or a SkillError naming the field and problem. */
export function validateSave(input: unknown, maxCodeChars: number): SkillSave {
  const label = `skill ${nameOf(input) ?? "(unnamed)"}`;
  if (fieldOf(input, "language") === "python")
    throw new SkillError("ValidationError", `${label}: language "python": ${SKILLS_ARE_TYPESCRIPT}`);
  const parsed = SkillSave.safeParse(input);
  if (!parsed.success) throw new SkillError("ValidationError", `${label}: ${z.prettifyError(parsed.error)}`);
  const skill = parsed.data;
  if (skill.code.length > maxCodeChars) {
    throw new SkillError(
      "LimitError",
      `${label}: code is ${skill.code.length} characters, more than the ${maxCodeChars} allowed; split it into smaller skills that call each other (operator setting: SKILL_MAX_CODE_CHARS)`,
    );
  }
  const problem =
    (skill.inputSchema && inputSchemaProblem(skill.inputSchema)) ||
    (skill.outputSchema && outputSchemaProblem(skill.outputSchema));
  if (problem) throw new SkillError("ValidationError", `${label}: ${problem}`);
  const compiled = compileAgentCode(skill.code, "typescript", "skill");
  if (!compiled.ok) {
    const python = pythonLine(skill.code);
    if (python) {
      throw new SkillError(
        "SyntaxError",
        `${label}: the code is Python (line ${python.line}); ${SKILLS_ARE_TYPESCRIPT}`,
        python.line,
      );
    }
    const { name, line, column } = compiled.error;
    const message = compiled.error.message.replace(/ \(line \d+, column \d+\)$/, "");
    const at =
      line === undefined ? "" : ` at line ${line}${column === undefined ? "" : `, column ${column}`}`;
    throw new SkillError("SyntaxError", `${label}: ${name}${at}: ${message}`, line, column);
  }
  return skill;
}

function fieldOf(input: unknown, field: string): unknown {
  return typeof input === "object" && input !== null ? (input as Record<string, unknown>)[field] : undefined;
}

function nameOf(input: unknown): string | undefined {
  const name = fieldOf(input, "name");
  return typeof name === "string" && name.length <= 64 ? JSON.stringify(name).slice(1, -1) : undefined;
}
