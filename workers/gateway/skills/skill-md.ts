import type { SkillRecord } from "../../../shared/contract/skills";

/**
 * A skill as SKILL.md: YAML front matter (name, description, language, version), then its code in a
 * ```ts (or ```python) block and its inputSchema and outputSchema in ```json blocks. The front matter's name is the skill's
 * unless `frontmatterName` is given (the skills extension's spelling, mcp/skill-resources.ts). `npm run skills -- import` reads it back.
 */
export function renderSkillMd(record: SkillRecord, frontmatterName = record.name): string {
  const lines = [
    "---",
    `name: ${yamlString(frontmatterName)}`,
    `description: ${yamlString(record.description)}`,
    `language: ${record.language}`,
    `version: ${record.version}`,
    "---",
    "",
    `# ${record.name}`,
    "",
    record.language === "python"
      ? `Called from Python code as \`await skills.${record.name}(**args)\`.`
      : `Called from code as \`skills.${record.name}(args)\`.`,
    "",
    ...fenced(record.language === "python" ? "python" : "ts", record.code),
  ];
  if (record.inputSchema) {
    lines.push("", "## Input schema", "", ...fenced("json", JSON.stringify(record.inputSchema, null, 2)));
  }
  if (record.outputSchema) {
    lines.push("", "## Output schema", "", ...fenced("json", JSON.stringify(record.outputSchema, null, 2)));
  }
  return `${lines.join("\n")}\n`;
}

/**
 * A JSON string is a YAML double-quoted scalar once the characters YAML does not allow there
 * unescaped (DEL, C1 controls, BOM, non-characters, and U+2028/9, line breaks to YAML 1.1) are escaped.
 */
function yamlString(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A fence longer than any run of backticks in the text, so the text cannot close it. The lines
 * between the fences, joined with "\n", are the text exactly (a final newline too).
 */
function fenced(language: string, text: string): string[] {
  const longest = (text.match(/`+/g) ?? []).reduce((max, run) => Math.max(max, run.length), 0);
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}${language}`, text, fence];
}
