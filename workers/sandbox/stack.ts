import { ERROR_CAPS } from "../../shared/contract/sandbox";
import { AGENT_LINE_OFFSET, AGENT_MODULE } from "./compile";
import { WRAPPER_NAME } from "./compile/syntax";

const MAX_FRAMES = 20;
const MAX_LINE_CHARS = 500;
const LOCATION = `${AGENT_MODULE}:`;

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
    const at = agentLocation(text);
    if (!at || frames >= MAX_FRAMES) continue;
    const agentLine = at.line - AGENT_LINE_OFFSET;
    line ??= agentLine;
    frames++;
    out.push(
      `${text.slice(0, at.start)}code:${agentLine}${text.slice(at.end)}`.replace(WRAPPER_NAME, "<code>"),
    );
  }
  return line === undefined ? { stack: out.join("\n") } : { stack: out.join("\n"), line };
}

function isFrame(text: string): boolean {
  const trimmed = text.trimStart();
  return trimmed.length < text.length && trimmed.startsWith("at ");
}

/** `[prefix/]agent.js:LINE:COL` in a frame: where it starts and ends, and LINE. */
function agentLocation(text: string): { start: number; end: number; line: number } | undefined {
  const at = text.lastIndexOf(LOCATION);
  if (at < 0) return undefined;
  let start = at;
  while (start > 0 && !" (".includes(text[start - 1] as string)) start--;
  let end = at + LOCATION.length;
  const lineStart = end;
  while (end < text.length && isDigit(text[end])) end++;
  if (end === lineStart || text[end] !== ":") return undefined;
  const line = Number(text.slice(lineStart, end));
  end++;
  const colStart = end;
  while (end < text.length && isDigit(text[end])) end++;
  if (end === colStart) return undefined;
  return { start, end, line };
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= "0" && ch <= "9";
}
