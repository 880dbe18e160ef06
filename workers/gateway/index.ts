import { createApp } from "./app";

export { ApprovalDesk } from "../../durable-objects/approvals/approval-desk";
export { AuditLog } from "../../durable-objects/audit/audit-log";
export { ConnectionStore } from "../../durable-objects/connections/connection-store";
export { RateLimiter } from "../../durable-objects/limiter/rate-limiter";
export { SessionObject } from "../../durable-objects/session/session-object";
export { SkillIndex } from "../../durable-objects/skills/skill-index";
export { DetachedRun } from "./runs/detached-run";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
