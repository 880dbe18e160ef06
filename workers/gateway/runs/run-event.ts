import { z } from "zod";
import { ExecuteResult } from "../../../shared/contract/execute";

/** A question the run waits on: the approval's id and what the person is shown (approvals/asker.ts). */
export const RunQuestion = z.object({
  id: z.string().regex(/^apr_[0-9a-f]{24}$/),
  tool: z.string().max(300),
  server: z.string().max(64),
  args: z.string().max(2_000),
  rule: z.string().max(300),
  timeoutMs: z.number().int().nonnegative(),
});
export type RunQuestion = z.infer<typeof RunQuestion>;

/** A connect link the run waits on the user to open (bridge/connect-ask.ts): the flow's id, the link, the server. */
export const RunConnect = z.object({
  id: z.string().regex(/^cf_[A-Za-z0-9_-]{1,64}$/),
  url: z.string().url().max(2_000),
  server: z.string().max(64),
  message: z.string().max(1_000),
});
export type RunConnect = z.infer<typeof RunConnect>;

/**
 * What a detached execution reports, in order: questions it waits on, progress, and one end —
 * its result (`result`, an ExecuteResult: whoever reads it shapes the answer), or `lost` when the
 * gateway that ran it stopped reporting or the execution failed without a result.
 */
export const RunEvent = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("question"), question: RunQuestion }),
  z.object({ kind: z.literal("connect"), connect: RunConnect }),
  z.object({ kind: z.literal("progress"), progress: z.number().nonnegative(), message: z.string().max(500) }),
  z.object({ kind: z.literal("result"), result: ExecuteResult }),
  z.object({ kind: z.literal("lost"), message: z.string().max(500) }),
]);
export type RunEvent = z.infer<typeof RunEvent>;

export type NumberedEvent = RunEvent & { seq: number; at: number };

/** Where a run stands, as tasks/get reports it. */
export interface RunStatus {
  team: string;
  createdAt: number;
  /** when the run must have ended (its execution's deadline) */
  deadline: number;
  state: "working" | "input_required" | "completed" | "cancelled" | "lost";
  /** the latest event (progress included) */
  last?: NumberedEvent;
  /** the question the run waits on: the latest event that is not progress, while it is a question */
  question?: RunQuestion;
  /** the connect link the run waits on the user to open, likewise */
  connect?: RunConnect;
}
