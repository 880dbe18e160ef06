import type { Remember } from "../../../durable-objects/approvals/approval";

/** One call waiting for a person, as the person is shown it. */
export interface ApprovalQuestion {
  id: string;
  /** qualified name (`demo.update_ticket`) and the server it belongs to */
  tool: string;
  server: string;
  /** the arguments' JSON, clipped */
  args: string;
  /** why it needs approval (`destructiveHint`, `require "demo.*"`) */
  rule: string;
  /** how long the person has */
  timeoutMs: number;
}

export interface ClientAnswer {
  approve: boolean;
  remember: Remember;
}

/**
 * How the person behind the execute's client is asked (form elicitation on MCP 2025-11-25; the
 * 2026 protocol will bring another). Resolves with their answer, or undefined when they could not
 * answer (declined, dismissed, the client failed); aborting `signal` withdraws the question.
 */
export interface ApprovalAsker {
  ask(question: ApprovalQuestion, signal: AbortSignal): Promise<ClientAnswer | undefined>;
}
