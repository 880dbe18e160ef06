import type { BridgeResult } from "../../../shared/contract/sandbox";
import { replacePii } from "../../../shared/privacy/tokenize";
import { sha256Hex, utf8Bytes } from "../audit/hash";
import type { Span } from "./trace";

/** Characters of a tool call's arguments on its span with TRACE_ARGUMENTS=clipped. */
const CLIPPED_CHARS = 512;

/**
 * The span of one call from code (a tool or a skill), under the execution's span: GenAI's
 * `execute_tool` with the tool's name, the size of its arguments, never the arguments themselves.
 */
export function startToolSpan(parent: Span | undefined, label: string, argsJson: unknown): Span | undefined {
  return parent?.child(`execute_tool ${label}`, {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": label,
    "mcp.method.name": "tools/call",
    "gateway.server": label.slice(0, Math.max(0, label.indexOf("."))),
    "gateway.arguments.bytes": typeof argsJson === "string" ? utf8Bytes(argsJson) : 0,
  });
}

/**
 * Ends a call's span with its status and the result's size; the arguments' SHA-256 (canonical JSON,
 * as the audit entry has it) is added once computed, before the trace is sent. With `clipped`
 * (TRACE_ARGUMENTS=clipped) the arguments as the code wrote them, PII replaced by its kind, clipped.
 */
export function endToolSpan(
  span: Span | undefined,
  outcome: BridgeResult,
  args: unknown,
  resultJson: string | undefined,
  clipped: boolean,
): void {
  if (!span) return;
  span.set({
    "gateway.status": outcome.ok ? "ok" : outcome.error.name,
    "gateway.result.bytes": resultJson === undefined ? 0 : utf8Bytes(resultJson),
  });
  if (!outcome.ok) span.fail(outcome.error.name);
  span.end();
  if (!span.trace.recording || args === undefined) return;
  if (clipped) {
    const text = JSON.stringify(replacePii(args, (item) => `[${item.kind}]`)) ?? "";
    span.set({ "gen_ai.tool.call.arguments": text.slice(0, CLIPPED_CHARS) });
  }
  void sha256Hex(args).then((hash) => span.set({ "gateway.arguments.sha256": hash }));
}
