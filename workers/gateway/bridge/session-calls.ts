import { z } from "zod";
import type { BridgeResult } from "../../../shared/contract/sandbox";
import { SessionCall } from "../../../shared/contract/session";
import { ToolCallError } from "../discovery/tool-call-error";
import type { ExecutionSession } from "../sessions/execution";

/** Workspace bytes one execution may move (reads + writes), whatever its call count. */
export const MAX_SESSION_IO_BYTES = 256 * 1024 * 1024;

/**
 * One `state` / `workspace` / `session` call from the isolate: shape checked against the contract's
 * schema (sizes included) before anything is sent on, and the bytes moved counted.
 */
export class SessionCalls {
  #ioBytes = 0;

  constructor(private readonly session: ExecutionSession) {}

  async call(raw: unknown): Promise<BridgeResult> {
    const parsed = SessionCall.safeParse(raw);
    if (!parsed.success)
      throw new ToolCallError("TypeError", `${opOf(raw)}: ${z.prettifyError(parsed.error)}`);
    const call = parsed.data;
    if (call.op === "workspace.write") this.count(call.data.byteLength, call.op);
    if (call.op === "workspace.read") this.count(0, call.op);
    const answer = await this.session.call(call);
    if (answer.ok && answer.value instanceof Uint8Array) this.#ioBytes += answer.value.byteLength;
    return answer;
  }

  private count(bytes: number, op: string): void {
    if (this.#ioBytes + bytes > MAX_SESSION_IO_BYTES) {
      throw new ToolCallError(
        "LimitError",
        `${op}: this execution has moved ${this.#ioBytes} bytes of workspace data; the limit is ${MAX_SESSION_IO_BYTES}. Read and write less per execution, or split the work across executions`,
      );
    }
    this.#ioBytes += bytes;
  }
}

/** The `op` a session call names, for messages and spans; "session call" when it names none. */
export function opOf(raw: unknown): string {
  const op = raw !== null && typeof raw === "object" ? (raw as { op?: unknown }).op : undefined;
  return typeof op === "string" ? op.slice(0, 40) : "session call";
}
