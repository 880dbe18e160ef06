// The unit tests' main module: the gateway's exports, and nothing else (the sandbox's bridge is an
// RPC argument, not an entrypoint, so there is nothing to stand in for).
export {
  ApprovalDesk,
  AuditLog,
  ConnectionStore,
  DetachedRun,
  default,
  RateLimiter,
  SessionObject,
  SkillIndex,
} from "../../workers/gateway/index";
