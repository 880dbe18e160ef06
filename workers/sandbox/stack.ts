import { ERROR_CAPS } from "../../shared/contract/sandbox";
import { AGENT_LINE_OFFSET, AGENT_MODULE } from "./compile";
import { WRAPPER_NAME } from "./compile/syntax";

const MAX_FRAMES = 20;
const MAX_LINE_CHARS = 500;
const LOCATION = `${AGENT_MODULE}:`;
const SKILL_PREFIX = "skill-";

/**
 * Rewrites a stack from the isolate so it speaks of the agent's code: frames in the agent's module
 * keep their function names and get the agent's line (`code:LINE`); runtime frames are dropped.
 * Columns are left out: TypeScript stripping and guard insertion move them, lines never move.
 * The stack is the agent's to write, so it is cut to size first and read with indexOf, never a regex.
 */
export function mapAgentStack(stack: string): { stack: string; line?: number } {
  const out: string[] = [];
  let line: number | undefined;
  let frames = 0;
  for (const raw of stack.slice(0, ERROR_CAPS.stack).split("\n")) {
    const text = raw.slice(0, MAX_LINE_CHARS);
    if (!isFrame(text)) {
      if (frames === 0 && out.length < MAX_FRAMES) out.push(text);
      continue;
    }
    const at = agentLocation(text) ?? skillLocation(text);
    if (!at || frames >= MAX_FRAMES) continue;
    const codeLine = at.line - AGENT_LINE_OFFSET;
    if (at.label === "code") line ??= codeLine;
    frames++;
    out.push(
      `${text.slice(0, at.start)}${at.label}:${codeLine}${text.slice(at.end)}`.replace(
        WRAPPER_NAME,
        `<${at.label}>`,
      ),
    );
  }
  return line === undefined ? { stack: out.join("\n") } : { stack: out.join("\n"), line };
}

function isFrame(text: string): boolean {
  const trimmed = text.trimStart();
  return trimmed.length < text.length && trimmed.startsWith("at ");
}

interface Location {
  start: number;
  end: number;
  line: number;
  /** `code` for the agent's module, `skills.<name>` for a skill's */
  label: string;
}

/** `[prefix/]agent.js:LINE:COL` in a frame: where it starts and ends, and LINE. */
function agentLocation(text: string): Location | undefined {
  const at = text.lastIndexOf(LOCATION);
  return at < 0 ? undefined : lineAndColumn(text, at, at + LOCATION.length, "code");
}

/** `[prefix/]skill-<name>.js:LINE:COL` in a frame (skill names are `[a-z][a-z0-9_]*`). */
function skillLocation(text: string): Location | undefined {
  const at = text.lastIndexOf(SKILL_PREFIX);
  if (at < 0) return undefined;
  let nameEnd = at + SKILL_PREFIX.length;
  while (nameEnd < text.length && isNameChar(text[nameEnd])) nameEnd++;
  if (nameEnd === at + SKILL_PREFIX.length || !text.startsWith(".js:", nameEnd)) return undefined;
  const name = text.slice(at + SKILL_PREFIX.length, nameEnd);
  return lineAndColumn(text, at, nameEnd + ".js:".length, `skills.${name}`);
}

function lineAndColumn(text: string, at: number, afterColon: number, label: string): Location | undefined {
  let start = at;
  while (start > 0 && !" (".includes(text[start - 1] as string)) start--;
  let end = afterColon;
  const lineStart = end;
  while (end < text.length && isDigit(text[end])) end++;
  if (end === lineStart || text[end] !== ":") return undefined;
  const line = Number(text.slice(lineStart, end));
  end++;
  const colStart = end;
  while (end < text.length && isDigit(text[end])) end++;
  if (end === colStart) return undefined;
  return { start, end, line, label };
}

function isNameChar(ch: string | undefined): boolean {
  return ch !== undefined && ((ch >= "a" && ch <= "z") || isDigit(ch) || ch === "_");
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= "0" && ch <= "9";
}
