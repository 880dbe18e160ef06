// What the Python isolate (workers/sandbox/python/runtime/isolate.js, loaded as it is, not bundled)
// shares with this runtime: shaping result and logs to the output budget, the tracker of calls left
// behind (for the TypeScript skills Python code calls), the PII-aware cut, live console lines, and
// the cut of an error's `data`.
export { ERROR_CAPS, SESSION_LIMITS } from "../../../shared/contract/caps";
export { fitJson } from "../../../shared/output/fit";
export { shapeOutput } from "../../../shared/output/shape";
export { cutOutsidePii } from "../../../shared/privacy/cut";
export { liveLog } from "./live-log.js";
export { pendingCalls } from "./pending.js";
