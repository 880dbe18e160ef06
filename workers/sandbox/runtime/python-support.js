// What the Python isolate (workers/sandbox/python/runtime/isolate.js, loaded as it is, not bundled)
// shares with this runtime: shaping result and logs to the output budget, the tracker of calls left
// behind (for the TypeScript skills Python code calls), the PII-aware cut, live console lines, and
// the cut of an error's `data`, and the contract's caps the Python runtime keeps (its files are
// copied as they are, so it takes them from here).
export {
  ERROR_CAPS,
  MAX_LOG_LINES,
  MAX_SKILL_RUNS,
  RESULT_WALK_CHARS,
  SESSION_LIMITS,
  WARNING_CAPS,
} from "../../../shared/contract/caps";
export { fitJson } from "../../../shared/output/fit";
export { shapeOutput } from "../../../shared/output/shape";
export { cutOutsidePii } from "../../../shared/privacy/cut";
export { liveLog } from "./live-log.js";
export { pendingCalls } from "./pending.js";
