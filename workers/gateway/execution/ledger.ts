import type { CallStat } from "../../../shared/contract/execute";
import type { ExecutionLimits } from "../config";
import { quoteName, ToolCallError } from "../discovery/tool-call-error";

/** One call the sandbox made through the bridge. */
export interface CallRecord {
  name: string;
  ms: number;
  ok: boolean;
}

/** Tools listed by name in `stats.calls`; the rest are summed in one entry. */
const MAX_LISTED_TOOLS = 10;
/** Names kept apart while counting (a loop over made-up names cannot grow the map without end). */
const MAX_COUNTED_NAMES = 200;
const OTHERS = "(others)";

type Budget = "toolCalls" | "discoveryCalls" | "fetches" | "sessionCalls";

/** Each budget's LimitError: what ran out, what the code can do instead, the operator's variable. */
const WHAT: Record<Budget, { noun: string; instead: string; variable: string }> = {
  toolCalls: {
    noun: "tool calls",
    instead:
      "do fewer calls per execution: combine them (one call with a list, filter or bigger page), or split the work across executions",
    variable: "EXEC_MAX_TOOL_CALLS",
  },
  discoveryCalls: {
    noun: "searchTools/getToolDefinition calls",
    instead: "search once with a broader query, or look tools up with search_tools before execute",
    variable: "EXEC_MAX_DISCOVERY_CALLS",
  },
  fetches: {
    noun: "network requests",
    instead: "make fewer requests per execution, or split the work across executions",
    variable: "EXEC_MAX_TOOL_CALLS",
  },
  sessionCalls: {
    noun: "state/workspace/session calls",
    instead:
      "gather values in variables and write them once (one state.set of an object), or split the work across executions",
    variable: "EXEC_MAX_SESSION_CALLS",
  },
};

/**
 * One execution's budgets and call list, kept in the gateway: the isolate can neither see nor
 * change them. Every bridge call is counted before any work is done for it, and once the
 * execution has ended (`close`) every further call is refused.
 */
export class ExecutionLedger {
  #recorded = 0;
  readonly #byName = new Map<string, CallStat>();
  #used: Record<Budget, number> = { toolCalls: 0, discoveryCalls: 0, fetches: 0, sessionCalls: 0 };
  #closed = false;
  readonly #limits: Record<Budget, number>;

  constructor(limits: Pick<ExecutionLimits, "maxToolCalls" | "maxDiscoveryCalls" | "maxSessionCalls">) {
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

  /**
   * Takes one unit of `budget` or throws a LimitError naming it, the call (`label`) and what to do
   * instead; the variable is named last, as a hint for the operator.
   */
  take(budget: Budget, label: string): void {
    if (this.#closed) {
      throw new ToolCallError(
        "ExecutionEndedError",
        `${quoteName(label)}: the execution has already ended; await every call before the code returns`,
      );
    }
    const limit = this.#limits[budget];
    if (this.#used[budget] >= limit) {
      const { noun, instead, variable } = WHAT[budget];
      throw new ToolCallError(
        "LimitError",
        `${quoteName(label)}: limit of ${limit} ${noun} per execution reached; ${instead} (operator setting: ${variable})`,
      );
    }
    this.#used[budget]++;
  }

  /** Tool and skill calls made (each one counted once it passed its budget). */
  get toolCalls(): number {
    return this.#recorded;
  }

  record(call: CallRecord): void {
    this.#recorded++;
    const name = this.#byName.has(call.name) || this.#byName.size < MAX_COUNTED_NAMES ? call.name : OTHERS;
    const stat = this.#byName.get(name) ?? { name, count: 0, errors: 0, ms: 0 };
    stat.count++;
    if (!call.ok) stat.errors++;
    stat.ms += call.ms;
    this.#byName.set(name, stat);
  }

  /**
   * How the skills the gateway counted went, as the isolate saw them (their inner calls included):
   * the time and failures of `skills.<name>` entries the ledger already has, never their count.
   */
  skillsRan(runs: readonly CallStat[]): void {
    for (const run of runs) {
      const stat = this.#byName.get(run.name);
      if (!stat || !run.name.startsWith("skills.")) continue;
      stat.errors = Math.min(stat.count, Math.max(stat.errors, run.errors));
      stat.ms = Math.max(0, run.ms);
    }
  }

  /** `stats.calls`: per name, most called first, at most MAX_LISTED_TOOLS entries and one for the rest. */
  callStats(): CallStat[] {
    const all = [...this.#byName.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
    if (all.length <= MAX_LISTED_TOOLS) return all.map((s) => ({ ...s }));
    const listed = all.slice(0, MAX_LISTED_TOOLS - 1).map((s) => ({ ...s }));
    const rest = { name: OTHERS, count: 0, errors: 0, ms: 0 };
    for (const s of all.slice(MAX_LISTED_TOOLS - 1)) {
      rest.count += s.count;
      rest.errors += s.errors;
      rest.ms += s.ms;
    }
    return [...listed, rest];
  }

  close(): void {
    this.#closed = true;
  }
}
