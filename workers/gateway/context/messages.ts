import { z } from "zod";
import type { MessageFacts } from "../request/messages";

/** One JSON-RPC message as far as the gateway reads it; every part optional, a malformed one left out. */
const Message = z.object({
  method: z.string().optional().catch(undefined),
  params: z
    .object({
      name: z.unknown(),
      _meta: z.record(z.string(), z.unknown()).optional().catch(undefined),
      clientInfo: z.object({ name: z.string(), version: z.string() }).optional().catch(undefined),
      capabilities: z
        .object({ elicitation: z.object({ form: z.unknown(), url: z.unknown() }).partial().optional() })
        .optional()
        .catch(undefined),
    })
    .partial()
    .optional()
    .catch(undefined),
});

/** The facts the MCP edge decides on, read from a POST /mcp body once (request/messages.ts). */
export function messageFacts(body: unknown): MessageFacts {
  const messages = (Array.isArray(body) ? body : [body]).map((m) => Message.safeParse(m).data);
  let executeCalls = 0;
  let executeProgress = false;
  for (const m of messages) {
    if (m?.method !== "tools/call" || m.params?.name !== "execute") continue;
    executeCalls++;
    const token = m.params._meta?.progressToken;
    if (typeof token === "string" || typeof token === "number") executeProgress = true;
  }
  const lone = Array.isArray(body) ? undefined : messages[0];
  const init = lone?.method === "initialize" ? lone.params : undefined;
  return {
    executeCalls,
    executeProgress,
    ...(lone?.params?._meta ? { meta: lone.params._meta } : {}),
    ...(lone?.method === "initialize"
      ? {
          initialize: {
            ...(init?.clientInfo ? { clientInfo: init.clientInfo } : {}),
            ...(init?.capabilities?.elicitation ? { elicitation: init.capabilities.elicitation } : {}),
          },
        }
      : {}),
  };
}
