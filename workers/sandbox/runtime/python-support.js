// What the Python isolate (workers/sandbox/python/runtime/isolate.js, loaded as it is, not bundled)
// shares with this runtime: shaping result and logs to the output budget, the tracker of calls left
// behind (for the TypeScript skills Python code calls), and the PII-aware cut.
export { SESSION_LIMITS } from "../../../shared/contract/caps";
export { shapeOutput } from "../../../shared/output/shape";
export { cutOutsidePii } from "../../../shared/privacy/cut";
export { pendingCalls } from "./pending.js";
