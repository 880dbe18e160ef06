import { AGENT_LINE_OFFSET, AGENT_MODULE } from "./compile";
import { WRAPPER_NAME } from "./compile/syntax";

const FRAME = /^\s+at\s/;
const AGENT_LOCATION = new RegExp(`(?:[\\w:/.-]*/)?${AGENT_MODULE.replace(".", "\\.")}:(\\d+):\\d+`);
const MAX_FRAMES = 20;

/**
 * Rewrites a stack from the isolate so it speaks of the agent's code: frames in the agent's module
 * keep their function names and get the agent's line (`code:LINE`); runtime frames are dropped.
 * Columns are left out: TypeScript stripping and guard insertion move them, lines never move.
 */
export function mapAgentStack(stack: string): { stack: string; line?: number } {
  const out: string[] = [];
  let line: number | undefined;
  let frames = 0;
  for (const text of stack.split("\n")) {
    if (!FRAME.test(text)) {
      if (frames === 0) out.push(text);
      continue;
    }
    const match = AGENT_LOCATION.exec(text);
    if (!match || frames >= MAX_FRAMES) continue;
    const agentLine = Number(match[1]) - AGENT_LINE_OFFSET;
    line ??= agentLine;
    frames++;
    out.push(text.replace(AGENT_LOCATION, `code:${agentLine}`).replace(WRAPPER_NAME, "<code>"));
  }
  return line === undefined ? { stack: out.join("\n") } : { stack: out.join("\n"), line };
}
