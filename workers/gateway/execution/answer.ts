import { ANSWER_OVERHEAD_CHARS, MAX_CUTS, WARNING_CAPS } from "../../../shared/contract/caps";
import type { Cut, ExecuteResult, Truncation } from "../../../shared/contract/execute";
import { shapeOutput } from "../../../shared/output/shape";
import { cutOutsidePii } from "../../../shared/privacy/cut";

/**
 * The answer as the agent gets it: result and logs (with the error's stack) within `maxChars`
 * again after anything the gateway changed (PII tokens can be longer than what they stand for), a
 * cut result announced in `warnings`, warnings bounded. The whole JSON text then stays within
 * maxChars + ANSWER_OVERHEAD_CHARS.
 */
export function boundAnswer(answer: ExecuteResult, maxChars: number, piiSafeCuts: boolean): ExecuteResult {
  let out = answer;
  const room = Math.max(0, maxChars - (answer.error?.stack?.length ?? 0));
  const resultChars = answer.result === undefined ? 0 : (JSON.stringify(answer.result) ?? "").length;
  const logChars = answer.logs.reduce((sum, line) => sum + line.length, 0);
  if (resultChars + logChars > room) {
    const shaped = shapeOutput(
      { result: answer.result, logs: answer.logs, logsDropped: 0 },
      room,
      piiSafeCuts ? cutOutsidePii : undefined,
    );
    const truncation = merged(answer.truncation, shaped.truncation);
    out = {
      ...answer,
      ...(shaped.resultJson === undefined ? {} : { result: JSON.parse(shaped.resultJson) }),
      logs: shaped.logs,
      ...(truncation ? { truncation } : {}),
      stats: { ...answer.stats, truncated: true },
    };
  }
  const warnings = [...(out.warnings ?? [])];
  if (out.truncation) warnings.unshift(cutWarning(out.truncation, maxChars));
  return warnings.length ? { ...out, warnings: bounded(warnings) } : out;
}

/** Room the answer may take beyond EXEC_MAX_OUTPUT_CHARS (what the README states). */
export const answerCap = (maxChars: number): number => maxChars + ANSWER_OVERHEAD_CHARS;

/** One sentence: how much of the result is here, where it was cut, what to do. */
function cutWarning(t: Truncation, maxChars: number): string {
  const whole = `${t.lowerBound ? "over " : ""}${t.totalChars}`;
  const where = t.cuts.map((c) => `${c.path} ${c.kept} of ${c.of} ${c.unit}`).join("; ");
  const more = t.moreCuts ? ` (+${t.moreCuts} more cuts)` : "";
  const file = t.file ? ` The whole result is in workspace file ${t.file}.` : "";
  return `Result cut to ${t.keptChars} of ${whole} characters (limit ${maxChars}); return less: filter, page or summarize in code.${file} Cut: ${where}${more}`;
}

/** A second cut's figures over the first's: the whole size and each path's total come from the first. */
function merged(first: Truncation | undefined, second: Truncation | undefined): Truncation | undefined {
  if (!first || !second) return second ?? first;
  const before = new Map<string, Cut>(first.cuts.map((c) => [c.path, c]));
  const cuts = second.cuts.map((c) => ({ ...c, of: before.get(c.path)?.of ?? c.of }));
  for (const c of first.cuts) if (!cuts.some((d) => d.path === c.path)) cuts.push(c);
  return {
    ...first,
    keptChars: second.keptChars,
    cuts: cuts.slice(0, MAX_CUTS),
  };
}

function bounded(warnings: string[]): string[] {
  const clipped = warnings.map((w) =>
    w.length > WARNING_CAPS.chars ? `${w.slice(0, WARNING_CAPS.chars - 1)}…` : w,
  );
  if (clipped.length <= WARNING_CAPS.count) return clipped;
  return [
    ...clipped.slice(0, WARNING_CAPS.count - 1),
    `${clipped.length - WARNING_CAPS.count + 1} more warnings`,
  ];
}
