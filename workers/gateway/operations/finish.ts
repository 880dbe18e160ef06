import { type ExecuteResult, failedExecution } from "../../../shared/contract/execute";
import type { PiiKind } from "../../../shared/contract/session";
import { log } from "../../../shared/log";
import { tokenizeResult } from "../../../shared/privacy/result";
import { boundAnswer } from "../execution/answer";
import type { RequestContext } from "../request/context";
import type { ExecutionSession } from "../sessions/execution";

/**
 * What happens to a result on its way out: PII replaced by the session's tokens (when on; awaited,
 * since the answer carries them, and said once in `warnings`), the answer bounded again
 * (execution/answer.ts) and the session's id attached. A result that cannot be tokenized is withheld
 * rather than sent in the clear. (The session's history is its audit entries.)
 */
export async function finishInSession(
  ctx: RequestContext,
  session: ExecutionSession,
  ran: ExecuteResult,
): Promise<ExecuteResult> {
  let result = ran;
  const piiOn = ctx.config.pii === "tokenize";
  if (piiOn) {
    try {
      const kinds = new Set<PiiKind>();
      result = await tokenizeResult(ran, (items) => {
        for (const item of items) kinds.add(item.kind);
        return session.tokenize(items);
      });
      if (kinds.size > 0)
        result = { ...result, warnings: [tokenizedWarning(kinds), ...(result.warnings ?? [])] };
    } catch (err) {
      log("error", "PII tokenization failed; result withheld", {
        requestId: ctx.requestId,
        error: errorText(err),
      });
      result = failedExecution(
        {
          name: "PrivacyError",
          message: `The result could not be checked for personal data, so it was withheld (request ${ctx.requestId}); retry`,
        },
        ran.stats,
      );
    }
  }
  result = boundAnswer(result, ctx.config.limits.maxOutputChars, piiOn);
  return session.id === undefined ? result : { ...result, sessionId: session.id };
}

/** Said once per result that has tokens: which kinds, and that passing them back works. */
function tokenizedWarning(kinds: ReadonlySet<PiiKind>): string {
  const shown = [...kinds].map((kind) => `[${kind}_n]`).join(", ");
  return `Personal data in this answer is replaced by tokens (${shown}); pass a token as it is in a tool call of this session and the gateway restores the real value`;
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 500);
}
