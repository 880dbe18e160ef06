import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { z } from "zod";
import { ExecuteInput } from "../../../shared/contract/execute";

/** A lone, well-formed JSON-RPC `tools/call` of `execute` with arguments the tool accepts as they are. */
const ExecuteToolCall = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number().int()]),
    method: z.literal("tools/call"),
    params: z
      .object({
        name: z.literal("execute"),
        arguments: ExecuteInput,
        _meta: z.object({}).passthrough().optional(),
      })
      .strict(),
  })
  .strict();

/** An execute call as the gateway answers it itself: its input, and the JSON-RPC id on /mcp. */
export interface ExecuteCall {
  input: ExecuteInput;
  rpcId?: string | number;
}

/**
 * Whether a request is exactly one `execute` call, decided here alone: admission takes its
 * concurrency lease with its credits, and the route answers it without an SDK server.
 * - POST /v1/execute: a body that is a valid ExecuteInput.
 * - POST /mcp: a lone `tools/call` of execute that the SDK would answer with a plain tool result.
 *   Anything else (headers it refuses, an unsupported protocol version, arguments it would strip or
 *   refuse, task augmentation) goes through the SDK, whose answer for this call is the same tool
 *   handler's result as `{ result, jsonrpc, id }`, status 200, JSON.
 */
export function loneExecuteCall(path: string, body: unknown, headers: Headers): ExecuteCall | undefined {
  if (path === "/v1/execute") {
    const parsed = ExecuteInput.safeParse(body);
    return parsed.success ? { input: parsed.data } : undefined;
  }
  const accept = headers.get("Accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  const version = headers.get("MCP-Protocol-Version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  const parsed = ExecuteToolCall.safeParse(body);
  return parsed.success ? { input: parsed.data.params.arguments, rpcId: parsed.data.id } : undefined;
}
