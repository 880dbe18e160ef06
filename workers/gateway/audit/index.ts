export { AuditEntry, AuditQuery } from "../../../durable-objects/audit/entry";
export { canonicalJson, jsonBytes, sha256Hex } from "./hash";
export { sessionHistory } from "./history";
export { type AuditActor, auditApproval, auditExecution, auditToolCall } from "./hooks";
export { recordAudit } from "./record";
export { auditLogOf, auditNamespace, retentionDays } from "./store";
