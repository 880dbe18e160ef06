import type { ExecuteResult } from "../../../shared/contract/execute";
import { log } from "../../../shared/log";
import { tokenizeResult } from "../../../shared/privacy/result";
import type { ExecutionSession } from "../sessions/execution";
import type { RequestScope } from "./scope";

/**
 * What happens to a result on its way out: PII replaced by the session's tokens (when on; awaited,
 * since the answer carries them) and the session's id attached. A result that cannot be tokenized
 * is withheld rather than sent in the clear. (The session's history is its audit entries.)
 */
export async function finishInSession(
  scope: RequestScope,
  session: ExecutionSession,
  ran: ExecuteResult,
): Promise<ExecuteResult> {
  let result = ran;
  if (scope.config.pii === "tokenize") {
    try {
      result = await tokenizeResult(ran, (items) => session.tokenize(items));
    } catch (err) {
      log("error", "PII tokenization failed; result withheld", {
        requestId: scope.requestId,
        error: errorText(err),
      });
      result = {
        logs: [],
        error: {
          name: "PrivacyError",
          message: `The result could not be checked for personal data, so it was withheld (request ${scope.requestId}); retry`,
        },
        stats: ran.stats,
      };
    }
  }
  return session.id === undefined ? result : { ...result, sessionId: session.id };
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 500);
}
