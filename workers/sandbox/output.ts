import type { IsolateReport } from "../../shared/contract/sandbox";
import { cutOutsidePii } from "../../shared/privacy/cut";

export interface ShapedOutput {
  result?: unknown;
  logs: string[];
  truncated: boolean;
}

const MARKER_ROOM = 80;

/**
 * Holds result + logs to `maxChars` characters together (the result counted as its JSON text).
 * Whichever part is small keeps all of itself; the rest is split. A cut result becomes its JSON
 * text's head plus a marker; cut logs end with a marker line. Both markers say how much was cut.
 */
export function shapeOutput(outcome: Omit<IsolateReport, "error">, maxChars: number): ShapedOutput {
  const hasResult = outcome.resultJson !== undefined;
  const resultText = outcome.resultJson ?? "";
  const logsLength = outcome.logs.reduce((sum, line) => sum + line.length, 0);
  let truncated = outcome.resultTruncated || outcome.logsDropped > 0;
  let result: unknown = hasResult ? parseResult(resultText) : undefined;
  let logs = outcome.logs;

  if (resultText.length + logsLength > maxChars) {
    truncated = true;
    const half = Math.floor(maxChars / 2);
    let resultBudget = half;
    if (resultText.length <= half) resultBudget = resultText.length;
    else if (logsLength <= half) resultBudget = maxChars - logsLength;
    const logsBudget = maxChars - resultBudget;
    if (resultText.length > resultBudget) {
      const keep = cutOutsidePii(resultText, Math.max(0, resultBudget - MARKER_ROOM));
      result = `${resultText.slice(0, keep)}… [result truncated: ${resultText.length - keep} of ${resultText.length} characters cut]`;
    }
    logs = cutLogs(outcome.logs, logsBudget);
  }
  if (outcome.logsDropped > 0) {
    logs = [...logs, `[truncated] ${outcome.logsDropped} further log calls were not captured`];
  }
  return hasResult ? { result, logs, truncated } : { logs, truncated };
}

/** The isolate's JSON text of the result; text it had to cut is no longer JSON and stays text. */
function parseResult(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return `${text}… [result truncated in the sandbox]`;
  }
}

function cutLogs(lines: string[], budget: number): string[] {
  if (lines.reduce((sum, line) => sum + line.length, 0) <= budget) return lines;
  const kept: string[] = [];
  let used = 0;
  for (const [index, line] of lines.entries()) {
    const room = budget - MARKER_ROOM - used;
    if (line.length > room) {
      const keep = room > 0 ? cutOutsidePii(line, room) : 0;
      if (keep > 0) kept.push(line.slice(0, keep));
      const cutChars = line.length - keep + lines.slice(index + 1).reduce((s, l) => s + l.length, 0);
      kept.push(`[truncated] ${lines.length - index} log lines affected, ${cutChars} characters cut`);
      return kept;
    }
    kept.push(line);
    used += line.length;
  }
  return kept;
}
