import { z } from "zod";
import { DEFAULT_SKILL_LANGUAGE, type SkillLanguage, SkillSave } from "../../../shared/contract/skills";
import { compileAgentCode } from "../../sandbox/compile";
import { SkillError } from "./errors";
import { inputSchemaProblem, outputSchemaProblem } from "./input-schema";
import { pythonLine, SAVE_AS_PYTHON } from "./python-code";

/**
 * A save's input checked as contract "Skills" says, with its language (DEFAULT_SKILL_LANGUAGE when
 * left out), or a SkillError naming the field and problem. TypeScript and JavaScript are compiled
 * here; Python is not (the gateway has no Python parser: Python's skills.save() compiles it first).
 */
export function validateSave(input: unknown, maxCodeChars: number): SkillSave & { language: SkillLanguage } {
  const label = `skill ${nameOf(input) ?? "(unnamed)"}`;
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
  const language = skill.language ?? DEFAULT_SKILL_LANGUAGE;
  if (language === "python") return { ...skill, language };
  const compiled = compileAgentCode(skill.code, "typescript", "skill");
  if (!compiled.ok) {
    const python = pythonLine(skill.code);
    if (python) {
      throw new SkillError(
        "SyntaxError",
        `${label}: the code is Python (line ${python.line}), not ${language}; ${SAVE_AS_PYTHON}`,
        python.line,
      );
    }
    const { name, line, column } = compiled.error;
    const message = compiled.error.message.replace(/ \(line \d+, column \d+\)$/, "");
    const at =
      line === undefined ? "" : ` at line ${line}${column === undefined ? "" : `, column ${column}`}`;
    throw new SkillError("SyntaxError", `${label}: ${name}${at}: ${message}`, line, column);
  }
  return { ...skill, language };
}

function fieldOf(input: unknown, field: string): unknown {
  return typeof input === "object" && input !== null ? (input as Record<string, unknown>)[field] : undefined;
}

function nameOf(input: unknown): string | undefined {
  const name = fieldOf(input, "name");
  return typeof name === "string" && name.length <= 64 ? JSON.stringify(name).slice(1, -1) : undefined;
}
