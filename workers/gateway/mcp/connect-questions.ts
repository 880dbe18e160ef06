import type { RequestId } from "@modelcontextprotocol/server";
import type { ConnectAsker } from "../bridge/connect-ask";
import { connectionStore } from "../connections/store";
import type { RequestContext } from "../request/context";
import type { ClientLink } from "./client-link";

/** JSON-RPC ids of the gateway's connect questions: `connect_<flow id>` (answers are dropped). */
export const CONNECT_QUESTION_ID = /^connect_cf_[A-Za-z0-9_-]{1,64}$/;

/**
 * Asks a client that declared URL elicitation (MCP 2025-11-25) to open a connect link: the
 * gateway's own page (contract "Per-user upstream authorization"), never the upstream's. The
 * answer is not awaited: the call waits for the connection in the store, and when it exists (or
 * the wait ends) notifications/elicitation/complete tells the client.
 */
export function urlConnectAsker(link: ClientLink, requestId: RequestId): ConnectAsker {
  return {
    async ask(question) {
      await link.send(
        {
          jsonrpc: "2.0",
          id: `connect_${question.id}`,
          method: "elicitation/create",
          params: {
            mode: "url",
            elicitationId: question.id,
            url: question.url,
            message: `Connect your account for server "${question.server}": open the page, sign in, then come back. The call goes on by itself.`,
          },
        },
        requestId,
      );
    },
    done(question) {
      link
        .send(
          {
            jsonrpc: "2.0",
            method: "notifications/elicitation/complete",
            params: { elicitationId: question.id },
          },
          requestId,
        )
        .catch(() => {});
    },
  };
}

/**
 * The person declined a connect link (or their client could not show it): its flow is dropped, so
 * the call waiting on it stops at once with the AuthorizationRequiredError that carries the link.
 */
export async function declineConnect(ctx: RequestContext, flowId: string): Promise<void> {
  await connectionStore(ctx.env, ctx.team)
    .dropFlow(ctx.team, flowId, ctx.user)
    .catch(() => false);
}
