import type { CallLedger, CallRecord } from "../../sandbox/executor";
import type { SandboxLimits } from "../../sandbox/limits";
import { ToolCallError } from "./call-tool";

type Budget = "toolCalls" | "discoveryCalls" | "fetches" | "sessionCalls";

const WHAT: Record<Budget, { noun: string; variable: string }> = {
  toolCalls: { noun: "tool calls", variable: "EXEC_MAX_TOOL_CALLS" },
  discoveryCalls: { noun: "searchTools/getToolDefinition calls", variable: "EXEC_MAX_DISCOVERY_CALLS" },
  fetches: { noun: "network requests", variable: "EXEC_MAX_TOOL_CALLS" },
  sessionCalls: { noun: "state/workspace/session calls", variable: "EXEC_MAX_SESSION_CALLS" },
};

/**
 * One execution's budgets and call list, kept in the gateway: the isolate can neither see nor
 * change them. Every bridge call is counted before any work is done for it, and once the
 * execution has ended (`close`) every further call is refused.
 */
export class ExecutionLedger implements CallLedger {
  readonly calls: CallRecord[] = [];
  #used: Record<Budget, number> = { toolCalls: 0, discoveryCalls: 0, fetches: 0, sessionCalls: 0 };
  #closed = false;
  readonly #limits: Record<Budget, number>;

  constructor(limits: Pick<SandboxLimits, "maxToolCalls" | "maxDiscoveryCalls" | "maxSessionCalls">) {
    this.#limits = {
      toolCalls: limits.maxToolCalls,
      discoveryCalls: limits.maxDiscoveryCalls,
      fetches: limits.maxToolCalls,
      sessionCalls: limits.maxSessionCalls,
    };
  }

  get fetches(): number {
    return this.#used.fetches;
  }

  /** Takes one unit of `budget` or throws a LimitError naming it (and `label`, the call). */
  take(budget: Budget, label: string): void {
    if (this.#closed) {
      throw new ToolCallError("ExecutionEndedError", `${label}: the execution has already ended`);
    }
    const limit = this.#limits[budget];
    if (this.#used[budget] >= limit) {
      const { noun, variable } = WHAT[budget];
      throw new ToolCallError(
        "LimitError",
        `${label}: limit of ${limit} ${noun} per execution reached (${variable})`,
      );
    }
    this.#used[budget]++;
  }

  record(call: CallRecord): void {
    this.calls.push(call);
  }

  close(): void {
    this.#closed = true;
  }
}
