import type { ApprovalDesk } from "../../../durable-objects/approvals/approval-desk";
import type { GatewayEnv } from "../env";

/** The deployment's one approval desk (durable-objects/approvals/approval-desk.ts). */
export function approvalDesk(env: GatewayEnv): DurableObjectStub<ApprovalDesk> {
  return env.APPROVAL_DESK.get(env.APPROVAL_DESK.idFromName("desk"));
}
