import type { IsolateReport, SandboxOutcome } from "../../shared/contract/sandbox";
import { shapeOutput } from "../../shared/output/shape";
import { cutOutsidePii } from "../../shared/privacy/cut";

/** Room for the marker lines shapeOutput adds to cut logs. */
const MARKER_ROOM = 200;

/**
 * The isolate's report as the execution's outcome. The isolate has shaped result and logs to
 * `maxChars` already (shared/output/shape.ts); what it sent is checked, not trusted: a result that
 * is not JSON is a tampered report, and output over the budget is shaped again here, with the
 * truncation figures of this cut.
 */
export function outcomeOf(report: IsolateReport, maxChars: number, piiSafeCuts: boolean): SandboxOutcome {
  const extras = {
    ...(report.warnings?.length ? { warnings: report.warnings } : {}),
    ...(report.skillRuns?.length ? { skillRuns: report.skillRuns } : {}),
  };
  let result: unknown;
  if (report.resultJson !== undefined) {
    try {
      result = JSON.parse(report.resultJson);
    } catch {
      throw new ReportNotJson();
    }
  }
  const room = Math.max(0, maxChars - (report.error?.stack?.length ?? 0));
  const logsLength = report.logs.reduce((sum, line) => sum + line.length, 0);
  const within = (report.resultJson?.length ?? 0) + logsLength <= room + (report.logsCut ? MARKER_ROOM : 0);
  if (within) {
    return {
      ...(result === undefined ? {} : { result }),
      ...(report.truncation ? { truncation: report.truncation } : {}),
      ...extras,
      logs: report.logs,
      truncated: report.truncation !== undefined || report.logsCut,
    };
  }
  const shaped = shapeOutput(
    { result, logs: report.logs, logsDropped: 0 },
    room,
    piiSafeCuts ? cutOutsidePii : undefined,
  );
  return {
    ...(shaped.resultJson === undefined ? {} : { result: JSON.parse(shaped.resultJson) }),
    ...(shaped.truncation ? { truncation: shaped.truncation } : {}),
    ...extras,
    logs: shaped.logs,
    truncated: true,
  };
}

/** The runtime's result was not JSON: the agent's code must have interfered with it. */
export class ReportNotJson extends Error {
  constructor() {
    super("The sandbox's report held a result that is not JSON (did the code tamper with the runtime?)");
    this.name = "SandboxError";
  }
}
