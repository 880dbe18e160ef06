import { tokenizeValues } from "../../../shared/privacy/tokenize";
import type { ExecutionSession } from "../sessions/execution";
import type { ExecutionEvents } from "./events";

/**
 * `events` with PII tokenized in live log lines, as the result's logs will be (PII_MODE tokenize):
 * the session's tokens, events kept in order. A line that cannot be tokenized is not sent.
 */
export function withPrivateLogs(events: ExecutionEvents, session: ExecutionSession): ExecutionEvents {
  let chain: Promise<void> = Promise.resolve();
  const inOrder = (send: () => void | Promise<void>) => {
    chain = chain.then(send).catch(() => {});
  };
  return {
    callFinished: (name, finished) => inOrder(() => events.callFinished(name, finished)),
    waitingForApproval: (tool, id) => inOrder(() => events.waitingForApproval(tool, id)),
    log: (line) =>
      inOrder(async () => {
        const [clean] = await tokenizeValues([line], (items) => session.tokenize(items));
        if (typeof clean === "string") events.log(clean);
      }),
  };
}
