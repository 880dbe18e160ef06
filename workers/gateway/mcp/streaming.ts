import type { RequestContext } from "../request/context";

/**
 * Whether answering the request may send something before its result, so it is answered as a
 * stream (SSE) rather than one JSON answer: an `execute` with a progress token, in a session that set
 * a logging level, or that may need an approval its client can be asked for (the team's policy asks
 * for some, and the client declared elicitation). Everything else keeps the JSON answer.
 */
export function needsStream(ctx: RequestContext): boolean {
  const facts = ctx.messages;
  if (!facts || facts.executeCalls === 0) return false;
  const session = ctx.mcpSession;
  const maySpeak =
    session?.logLevel !== undefined ||
    (ctx.config.approvals !== null &&
      (session?.elicitation?.form === true || session?.elicitation?.url === true));
  return maySpeak || facts.executeProgress;
}
