import { z } from "zod";
import type { RequestContext } from "../request/context";

const ExecuteCall = z.object({
  method: z.literal("tools/call"),
  params: z.object({
    name: z.literal("execute"),
    _meta: z
      .object({ progressToken: z.union([z.string(), z.number()]).optional() })
      .loose()
      .optional(),
  }),
});

/**
 * Whether answering `body` may send something before its result, so it is answered as a stream
 * (SSE) rather than one JSON answer: an `execute` with a progress token, in a session that set a
 * logging level, or that may need an approval its client can be asked for (the team's policy asks
 * for some, and the client declared elicitation). Everything else keeps the JSON answer.
 */
export function needsStream(ctx: RequestContext, body: unknown): boolean {
  const session = ctx.mcpSession;
  const maySpeak =
    session?.logLevel !== undefined ||
    (ctx.config.approvals !== null &&
      (session?.elicitation?.form === true || session?.elicitation?.url === true));
  return (Array.isArray(body) ? body : [body]).some((message) => {
    const call = ExecuteCall.safeParse(message);
    return call.success && (maySpeak || call.data.params._meta?.progressToken !== undefined);
  });
}
