import type { RequestId } from "@modelcontextprotocol/server";
import { HOST_GRACE_MS } from "../../../shared/contract/sandbox";
import type { RequestContext } from "../request/context";
import { sessionStub } from "../sessions/store";

/**
 * An execution runs this long before it listens for a notifications/cancelled sent to another
 * request: shorter ones end before anyone could cancel them, and pay nothing for it. A cancellation
 * that came earlier is kept by the session object and heard at once.
 */
const LISTEN_AFTER_MS = 200;

export interface Cancellation {
  signal: AbortSignal;
  /** the execution ended: stop listening */
  stop(): void;
}

/**
 * Aborts when the client gives up on the execution: it drops the request (`requestSignal`), the
 * SDK's own signal fires, or its notifications/cancelled for `rpcId` reaches the MCP session's
 * object through another request (`cancelRequests`), whichever isolate that request lands in.
 */
export function cancellation(
  ctx: RequestContext,
  options: {
    requestSignal?: AbortSignal;
    sdkSignal?: AbortSignal;
    rpcId?: RequestId;
    /** the execution's wall-clock limit: it listens no longer than that and the sandbox host's grace */
    timeoutMs: number;
  },
): Cancellation {
  const controller = new AbortController();
  const abort = () => controller.abort("cancelled");
  const signals = [options.requestSignal, options.sdkSignal].filter((s) => s !== undefined);
  for (const s of signals) {
    if (s.aborted) abort();
    else s.addEventListener("abort", abort, { once: true });
  }
  const session = ctx.mcpSession;
  const { rpcId } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (session && rpcId !== undefined) {
    const since = Date.now();
    timer = setTimeout(() => {
      sessionStub(ctx.env, session.id)
        .cancelled(ctx.team, JSON.stringify(rpcId), since, options.timeoutMs + 2 * HOST_GRACE_MS)
        .then((cancelled) => {
          if (cancelled) abort();
        })
        .catch(() => {});
    }, LISTEN_AFTER_MS);
  }
  return {
    signal: controller.signal,
    stop() {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener("abort", abort);
    },
  };
}
