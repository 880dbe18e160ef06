// Loaded only when PII tokenization is on (parts.ts): where text may be cut without splitting a
// value the detectors would take, so that a half-cut email never slips past tokenization.
export { cutOutsidePii } from "../../../shared/privacy/cut";
