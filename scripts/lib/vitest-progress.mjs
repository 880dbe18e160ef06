// A vitest reporter that appends a JSON line to $VITEST_PROGRESS_FILE as each test file starts and
// ends, so a suite stopped at its deadline (scripts/lib/test-suites.mjs) can still say which files
// finished, which were running and how long each took.
import { appendFileSync } from "node:fs";

const out = process.env.VITEST_PROGRESS_FILE;

/** @param {object} line */
function write(line) {
  if (out) appendFileSync(out, `${JSON.stringify(line)}\n`);
}

export default class ProgressReporter {
  /** @param {{ moduleId: string }} module */
  onTestModuleStart(module) {
    write({ file: module.moduleId, event: "start" });
  }

  /** @param {{ moduleId: string, state(): string, diagnostic(): { duration: number } }} module */
  onTestModuleEnd(module) {
    write({ file: module.moduleId, event: "end", state: module.state(), ms: module.diagnostic().duration });
  }
}
