import { env, runInDurableObject } from "cloudflare:test";
import { ApprovalDesk } from "../../durable-objects/approvals/approval-desk";
import type { PendingApproval } from "../../durable-objects/approvals/approval";
import type { GatewayEnv } from "../../workers/gateway/env";

/**
 * test/helpers/test-main.ts does not export ApprovalDesk, so in this pool every call on
 * env.APPROVAL_DESK fails ("does not export a ApprovalDesk Durable Object"). Until it does, the
 * approval tests run a real ApprovalDesk here, on the SQLite storage of a SessionObject instance of
 * its own (never opened as a session). Its alarm is kept in this helper, not set on the host, whose
 * alarm() is the session's: `alarmAt()` reads it, `desk.alarm()` runs it.
 */
export type DeskCalls = Pick<ApprovalDesk, "open" | "wait" | "decide" | "expire" | "get" | "list" | "alarm">;

export interface DeskHost {
  desk: DeskCalls;
  /** the alarm the desk asked for (ms since epoch), or null */
  alarmAt(): number | null;
  /** the real bindings, APPROVAL_DESK answering with this desk (whatever the name asked for) */
  env: GatewayEnv;
}

export function deskHost(name: string): DeskHost {
  const host = env.SESSIONS.get(env.SESSIONS.idFromName(`approval-desk-host:${name}`));
  let desk: ApprovalDesk | undefined;
  let alarm: number | null = null;
  const run = <T>(call: (desk: ApprovalDesk) => Promise<T>): Promise<T> =>
    runInDurableObject(host, (_session, state) => {
      // Only what ApprovalDesk uses of its state: SQL, and its alarm.
      const storage = {
        sql: state.storage.sql,
        getAlarm: async () => alarm,
        setAlarm: async (at: number | Date) => {
          alarm = typeof at === "number" ? at : at.getTime();
        },
      };
      if (!desk) {
        desk = new ApprovalDesk(state, env);
        // workerd wants a real state for the constructor; its methods then read this one.
        Object.defineProperty(desk, "ctx", { value: { storage } });
      }
      return call(desk);
    });
  const calls: DeskCalls = {
    open: (input) => run((d) => d.open(input)),
    wait: (id, maxMs) => run((d) => d.wait(id, maxMs)),
    decide: (id, input, team) => run((d) => d.decide(id, input, team)),
    expire: (id, status) => run((d) => d.expire(id, status)),
    get: (id) => run((d) => d.get(id)),
    list: (filter) => run((d) => d.list(filter)),
    alarm: () => run((d) => d.alarm()),
  };
  // The gateway reaches the desk as env.APPROVAL_DESK.get(idFromName("desk")) (approvals/desk.ts).
  const namespace = { idFromName: () => host.id, get: () => calls };
  return {
    desk: calls,
    alarmAt: () => alarm,
    env: { ...env, APPROVAL_DESK: namespace as unknown as GatewayEnv["APPROVAL_DESK"] },
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
