import { connectFlow, openConnect } from "../connections/connect";
import { listConnections } from "../connections/disconnect";
import { connectLink } from "../connections/link";
import { connectionStore } from "../connections/store";
import { quoteName, ToolCallError } from "../discovery/tool-call-error";
import type { RequestContext } from "../request/context";
import type { CredentialsMissing } from "../upstreams/credentials";

/** A link the person behind the client is asked to open: the gateway's connect page for one server. */
export interface ConnectQuestion {
  /** the flow's id: the URL elicitation's id */
  id: string;
  url: string;
  server: string;
  message: string;
}

/**
 * How the person behind an execute's client is asked to open a connect link (URL-mode elicitation):
 * resolves once the question is out; the connection is then awaited in the store.
 */
export interface ConnectAsker {
  ask(question: ConnectQuestion, signal: AbortSignal): Promise<void>;
  /** the connection exists (or the wait ended): the client may stop showing the link */
  done?(question: ConnectQuestion): void;
}

const POLL_MS = 1_000;

/**
 * A call needs credentials the user lacks. With an asker (a client that declared URL elicitation)
 * the user is shown the connect link and the call waits, until `deadline`, for the connection;
 * true then (retry the call). Otherwise — or when the wait ends without one — an
 * AuthorizationRequiredError whose message carries the link for the agent to relay.
 */
export async function requireConnection(
  ctx: RequestContext,
  missing: CredentialsMissing,
  tool: string,
  wait: { asker?: ConnectAsker | undefined; signal?: AbortSignal | undefined; deadline: number },
): Promise<true> {
  if (missing.reason === "unavailable") {
    throw new ToolCallError(
      "UpstreamError",
      `${quoteName(tool)}: the authorization server of "${missing.server}" could not be reached; retry later`,
    );
  }
  const flow = await openConnect(ctx.env, ctx.team, ctx.user, missing.server);
  const url = connectLink(ctx.origin, ctx.team, flow.id);
  const what =
    missing.reason === "secret-missing"
      ? `needs your secret ${missing.secret ?? ""} (set it on the page)`
      : missing.reason === "expired"
        ? `needs you to sign in to it again`
        : `needs you to connect your account`;
  const message = `${quoteName(tool)}: server "${missing.server}" ${what} (user ${quoteName(ctx.user)}). Give the user this link to open in a browser (valid 15 minutes), then run the code again: ${url}`;
  const { asker, signal } = wait;
  if (asker && !signal?.aborted && wait.deadline > Date.now()) {
    const question: ConnectQuestion = { id: flow.id, url, server: missing.server, message };
    const withdraw = new AbortController();
    await asker.ask(question, withdraw.signal);
    try {
      if (await connected(ctx, missing, flow.id, wait)) return true;
    } finally {
      withdraw.abort();
      asker.done?.(question);
    }
  }
  throw new ToolCallError("AuthorizationRequiredError", message);
}

/** Waits for the user's connection (or secret) to appear, until the deadline or the signal. */
async function connected(
  ctx: RequestContext,
  missing: CredentialsMissing,
  flowId: string,
  wait: { signal?: AbortSignal | undefined; deadline: number },
): Promise<boolean> {
  /** polls in a row that found the flow gone without a connection (a finished flow leaves one) */
  let gone = 0;
  while (Date.now() + POLL_MS < wait.deadline && !wait.signal?.aborted) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    // The user declined the link (its flow was dropped), or it expired: no point waiting longer.
    const flow = await connectFlow(ctx.env, ctx.team, ctx.user, flowId);
    gone = flow.ok ? 0 : gone + 1;
    if (missing.reason === "secret-missing") {
      // The secret is read again by the retried call; the page sets it before it says "done".
      const value = await connectionStore(ctx.env, ctx.team).userSecret(
        ctx.team,
        ctx.user,
        missing.secret ?? "",
      );
      if (value !== null) return true;
      if (gone >= 2) return false;
      continue;
    }
    const mine = await listConnections(ctx.env, ctx.team, ctx.user);
    if (mine.some((c) => c.server === missing.server && c.status === "connected")) return true;
    if (gone >= 2) return false;
  }
  return false;
}
