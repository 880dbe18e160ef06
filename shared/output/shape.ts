import type { Truncation } from "../contract/execute";
import { type Fitted, fitJson, JsonSizer } from "./fit";

export interface Shaped {
  /** the result's JSON text, within its share (absent: the code returned nothing) */
  resultJson?: string;
  truncation?: Truncation;
  logs: string[];
  /** the logs were cut (lines or characters) */
  logsCut: boolean;
}

export interface ShapeInput {
  /** the result as a JSON value (undefined: none) */
  result: unknown;
  logs: readonly string[];
  /** log calls counted but not kept (beyond the lines the isolate keeps) */
  logsDropped: number;
  /** the result is already a part of what the code returned (its size is then a lower bound) */
  lowerBound?: boolean;
}

const MARKER_ROOM = 80;

/**
 * Result and logs together within `maxChars` (the result counted as its JSON text). Whichever part
 * is small keeps all of itself; the rest is split evenly. The result is cut without breaking its
 * JSON (fit.ts); cut logs end with a line saying how much was cut. `cutText` (the gateway's) keeps
 * personal data whole where text is cut.
 */
export function shapeOutput(
  input: ShapeInput,
  maxChars: number,
  cutText?: (text: string, at: number) => number,
): Shaped {
  const hasResult = input.result !== undefined;
  const logsLength = input.logs.reduce((sum, line) => sum + line.length, 0);
  const sizer = new JsonSizer();
  const resultLength = hasResult ? sizer.of(input.result) : 0;
  let fitted: Fitted | undefined;
  let logs: string[] = [...input.logs];
  let logsCut = false;
  if (resultLength + logsLength > maxChars) {
    const half = Math.floor(maxChars / 2);
    let resultBudget = half;
    if (resultLength <= half) resultBudget = resultLength;
    else if (logsLength <= half) resultBudget = maxChars - logsLength;
    if (hasResult && resultLength > resultBudget) {
      fitted = fitJson(input.result, resultBudget, cutText ? { cutText, sizer } : { sizer });
    }
    const logsBudget = maxChars - (fitted ? fitted.json.length : resultLength);
    if (logsLength > logsBudget) {
      logs = cutLogs(input.logs, logsBudget, cutText);
      logsCut = true;
    }
  }
  if (input.logsDropped > 0) {
    logs.push(`[truncated] ${input.logsDropped} further log calls were not captured`);
    logsCut = true;
  }
  if (!hasResult) return { logs, logsCut };
  fitted ??= fitJson(input.result, resultLength, { sizer });
  const cut = fitted.cuts.length > 0 || fitted.moreCuts > 0 || input.lowerBound === true;
  return {
    resultJson: fitted.json,
    ...(cut
      ? {
          truncation: {
            totalChars: fitted.totalChars,
            keptChars: fitted.json.length,
            ...(input.lowerBound ? { lowerBound: true } : {}),
            cuts: fitted.cuts,
            ...(fitted.moreCuts ? { moreCuts: fitted.moreCuts } : {}),
          },
        }
      : {}),
    logs,
    logsCut,
  };
}

function cutLogs(
  lines: readonly string[],
  budget: number,
  cutText: ((text: string, at: number) => number) | undefined,
): string[] {
  const kept: string[] = [];
  let used = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const room = budget - MARKER_ROOM - used;
    if (line.length > room) {
      let keep = Math.max(0, room);
      if (keep > 0 && cutText) keep = cutText(line, keep);
      if (keep > 0) kept.push(line.slice(0, keep));
      let cutChars = line.length - keep;
      for (let rest = index + 1; rest < lines.length; rest++) cutChars += (lines[rest] as string).length;
      kept.push(`[truncated] ${lines.length - index} log lines affected, ${cutChars} characters cut`);
      return kept;
    }
    kept.push(line);
    used += line.length;
  }
  return kept;
}
