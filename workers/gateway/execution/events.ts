/**
 * What a running execution tells whoever started it, as it happens: the MCP route turns these into
 * progress and log notifications, the REST route into server-sent events. Each method returns at
 * once; a listener that sends nothing (JSON answers) is simply absent.
 */
export interface ExecutionEvents {
  /** a tool or skill call finished; `finished` counts every call finished so far */
  callFinished(name: string, finished: number): void;
  /** a call waits for a person's approval (decided by the client, or POST /admin/approvals/{id}) */
  waitingForApproval(tool: string, approvalId: string): void;
  /** a console line, as the result's `logs` has it (`[level] text`) */
  log(line: string): void;
}
