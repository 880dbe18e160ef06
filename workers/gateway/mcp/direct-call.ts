import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ExecuteInput } from "../../../shared/contract/execute";

/** A lone, well-formed JSON-RPC `tools/call` of `execute` with arguments the tool accepts as they are. */
const DirectExecute = z
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

export type DirectExecute = z.infer<typeof DirectExecute>;

/**
 * The `execute` call the gateway answers itself, without setting up an SDK server for the request,
 * or undefined: anything else, and anything the SDK would answer differently from a plain tool result
 * (headers it refuses, an unsupported protocol version, arguments it would strip or refuse, task
 * augmentation), goes through the SDK as before. The answer is what the SDK sends for this call: the
 * same tool handler's result as `{ result, jsonrpc, id }`, status 200, JSON.
 */
export function directExecute(body: unknown, headers: Headers): DirectExecute | undefined {
  const accept = headers.get("Accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  const version = headers.get("MCP-Protocol-Version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  const parsed = DirectExecute.safeParse(body);
  return parsed.success ? parsed.data : undefined;
}
