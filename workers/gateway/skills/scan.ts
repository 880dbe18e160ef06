import { RESERVED_SKILL_NAMES, SKILL_NAME } from "../../../shared/contract/skills";

/** `skills.name`, `skills?.name`, `skills["name"]`, `skills['name']`: no nested quantifiers, linear. */
const REFERENCE =
  /\bskills\s*(?:\??\.\s*([a-z][a-z0-9_]{0,63})\b|\[\s*(["'`])([a-z][a-z0-9_]{0,63})\2\s*\])/g;

/**
 * The skill names `code` refers to literally. Code is bounded (EXEC_MAX_CODE_CHARS,
 * SKILL_MAX_CODE_CHARS) before it gets here. A name in a comment or string is loaded too: harmless.
 */
export function skillNamesIn(code: string): string[] {
  const names = new Set<string>();
  for (const match of code.matchAll(REFERENCE)) {
    const name = match[1] ?? match[3];
    if (name && SKILL_NAME.test(name) && !(RESERVED_SKILL_NAMES as readonly string[]).includes(name))
      names.add(name);
  }
  return [...names];
}
