// What the Python isolate (workers/sandbox/python/runtime/isolate.js, loaded as it is, not bundled)
// shares with this runtime: shaping result and logs to the output budget, the tracker of calls left
// behind (for the TypeScript skills Python code calls), the PII-aware cut, and live console lines.
export { SESSION_LIMITS } from "../../../shared/contract/caps";
export { shapeOutput } from "../../../shared/output/shape";
export { cutOutsidePii } from "../../../shared/privacy/cut";
export { liveLog } from "./live-log.js";
export { pendingCalls } from "./pending.js";
