import { createApp } from "./app";
import { meteredEnv } from "./timing/storage-meter";

export { ApprovalDesk } from "../../durable-objects/approvals/approval-desk";
export { AuditLog } from "../../durable-objects/audit/audit-log";
export { ConnectionStore } from "../../durable-objects/connections/connection-store";
export { RateLimiter } from "../../durable-objects/limiter/rate-limiter";
export { SessionObject } from "../../durable-objects/session/session-object";
export { SkillIndex } from "../../durable-objects/skills/skill-index";
export { DetachedRun } from "./runs/detached-run";

const app = createApp();

export default {
  // PHASE_TIMING (`npm run bench`) counts KV and Durable Object calls; otherwise env is passed as is.
  fetch: (request, env, ctx) => app.fetch(request, meteredEnv(env), ctx),
} satisfies ExportedHandler<Env>;
