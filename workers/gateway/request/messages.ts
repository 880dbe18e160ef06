/**
 * What the gateway reads of a POST /mcp body beside the SDK (which validates the messages in full),
 * read once by the request context (context/messages.ts) and decided on by the MCP edge: whether an
 * execute asks for progress (mcp/streaming.ts), a lone request's `_meta` envelope (mcp/tasks.ts), and
 * what a session keeps of initialize (routes/mcp.ts).
 */
export interface MessageFacts {
  /** the body's `tools/call` messages of `execute`: how many, and whether one carries a progress token */
  readonly executeCalls: number;
  readonly executeProgress: boolean;
  /** a lone request's `params._meta` (MCP 2026-07-28 envelope: declared capabilities, log level) */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** a lone initialize: what its session keeps, each part on its own (a malformed one is left out) */
  readonly initialize?: {
    readonly clientInfo?: { name: string; version: string };
    readonly elicitation?: { form?: unknown; url?: unknown };
  };
}
