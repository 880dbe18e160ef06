import { createApp } from "./app";

export { AuditLog } from "../../durable-objects/audit/audit-log";
export { RateLimiter } from "../../durable-objects/limiter/rate-limiter";
export { SessionObject } from "../../durable-objects/session/session-object";
export { ToolBridge } from "./bridge/tool-bridge";
export { EgressGate } from "./egress/egress-gate";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
