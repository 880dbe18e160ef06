import { z } from "zod";

/** What a person may answer: run this call only, or every later call of the tool in the execution / session. */
export const REMEMBER = ["call", "execution", "session"] as const;
export type Remember = (typeof REMEMBER)[number];

/** A call from code waiting for a person (contract "Approvals"), as the desk keeps and lists it. */
export const PendingApproval = z.object({
  id: z.string().regex(/^apr_[0-9a-f]{24}$/),
  team: z.string().min(1).max(64),
  /** the qualified name as the catalog has it (`demo.update_ticket`, `skills.close_all`) */
  tool: z.string().min(1).max(300),
  /** the arguments' JSON, clipped (PII tokens stay tokens) */
  args: z.string().max(2_000),
  argsSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** why it needs approval: `require "demo.*"` or `destructiveHint` */
  rule: z.string().max(300),
  requestId: z.string().max(128),
  keyId: z.string().max(128),
  sessionId: z.string().max(128).optional(),
  createdAt: z.number().int(),
  /** when it times out (ms since epoch) */
  deadline: z.number().int(),
});
export type PendingApproval = z.infer<typeof PendingApproval>;

export const DecisionInput = z.object({
  approve: z.boolean(),
  by: z.enum(["client", "operator"]),
  remember: z.enum(REMEMBER).default("call"),
});
export type DecisionInput = z.input<typeof DecisionInput>;

/** How a pending approval ended. `cancelled`: its execution ended first (cancelled or timed out). */
export interface ApprovalDecision {
  status: "approved" | "denied" | "timeout" | "cancelled";
  by: "client" | "operator" | "gateway";
  remember: Remember;
  decidedAt: number;
}

export type ApprovalView = PendingApproval & { decision?: ApprovalDecision };
