import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import type { PendingApproval } from "../../durable-objects/approvals/approval";
import type { ApprovalDesk } from "../../durable-objects/approvals/approval-desk";
import type { GatewayEnv } from "../../workers/gateway/env";

export type DeskCalls = Pick<ApprovalDesk, "open" | "wait" | "decide" | "expire" | "get" | "list"> & {
  /** runs the desk's scheduled alarm now */
  alarm(): Promise<boolean>;
};

export interface DeskHost {
  desk: DeskCalls;
  /** the alarm the desk has set (ms since epoch), or null */
  alarmAt(): Promise<number | null>;
  /** the real bindings (the gateway's desk is the instance named "desk") */
  env: GatewayEnv;
}

/** The real ApprovalDesk binding: an instance of its own per `name` ("desk" is the gateway's). */
export function deskHost(name: string): DeskHost {
  const stub = env.APPROVAL_DESK.get(env.APPROVAL_DESK.idFromName(name));
  return {
    desk: {
      open: (input) => stub.open(input),
      wait: (id, maxMs) => stub.wait(id, maxMs),
      decide: (id, input, team) => stub.decide(id, input, team),
      expire: (id, status) => stub.expire(id, status),
      get: (id) => stub.get(id),
      list: (filter) => stub.list(filter),
      alarm: () => runDurableObjectAlarm(stub),
    },
    alarmAt: () => runInDurableObject(stub, (_desk, state) => state.storage.getAlarm()),
    env,
  };
}

let serial = 0;
/** A fresh approval id: `apr_` and 24 hex digits. */
export const approvalId = (): string =>
  `apr_${(Date.now() * 1000 + ++serial).toString(16).padStart(24, "0").slice(-24)}`;

/** A pending approval of `team`, waiting 2 minutes from now unless `over` says otherwise. */
export function pending(team: string, over: Partial<PendingApproval> = {}): PendingApproval {
  const now = Date.now();
  return {
    id: approvalId(),
    team,
    tool: "demo.update_ticket",
    args: '{"id":"T-1","status":"closed"}',
    argsSha256: "a".repeat(64),
    rule: "destructiveHint",
    requestId: "req-approval-test",
    keyId: "key-test",
    createdAt: now,
    deadline: now + 120_000,
    ...over,
  };
}
