import {
  LOG_LEVEL_META_KEY,
  type ServerContext,
  type ServerNotification,
} from "@modelcontextprotocol/server";
import { cancellation } from "../execution/cancellation";
import type { ExecutionChannel } from "../operations/plan";
import type { RequestContext } from "../request/context";
import { formAsker, urlAsker } from "./approval-questions";
import type { ClientLink } from "./client-link";
import { urlConnectAsker } from "./connect-questions";
import { levelOf, McpNotifier } from "./notifier";

/** What the tool handler needs of the request around it: its stream, and whether the client left. */
export interface RequestLink extends ClientLink {
  requestSignal: AbortSignal;
}

/**
 * The channel an `execute` called through the SDK talks to its client on: progress (with a progress
 * token), console lines (after logging/setLevel), approval questions (form elicitation, when the
 * client declared it and the team's policy may ask), and cancellation, listening no longer than the
 * execution's `timeoutMs` (its plan's); `execute` closes it when it ends.
 */
export function mcpChannel(
  ctx: RequestContext,
  link: RequestLink,
  extra: ServerContext,
  timeoutMs: number,
): ExecutionChannel {
  const progressToken = extra.mcpReq._meta?.progressToken;
  // 2026-07-28: the level rides on each request (`_meta` envelope); 2025: logging/setLevel, kept by the session.
  const envelope = extra.mcpReq.envelope as Record<string, unknown> | undefined;
  const logLevel = ctx.mcpSession?.logLevel ?? levelOf(envelope?.[LOG_LEVEL_META_KEY]);
  const notify = (n: ServerNotification) => extra.mcpReq.notify(n);
  const notifier =
    progressToken !== undefined || logLevel !== undefined
      ? new McpNotifier(notify, { progressToken, logLevel })
      : undefined;
  const modes = ctx.config.approvals === null ? undefined : ctx.mcpSession?.elicitation;
  // Form when the client offers it (the question and answer stay in the client), else the page.
  const asker = modes?.form
    ? formAsker(link, extra.mcpReq.id)
    : modes?.url
      ? urlAsker(link, extra.mcpReq.id, ctx.origin)
      : undefined;
  // A connect link can be shown to a client that declared URL elicitation (its own browser page).
  const connectAsker = ctx.mcpSession?.elicitation?.url ? urlConnectAsker(link, extra.mcpReq.id) : undefined;
  const cancel = cancellation(ctx, {
    requestSignal: link.requestSignal,
    sdkSignal: extra.mcpReq.signal,
    rpcId: extra.mcpReq.id,
    timeoutMs,
  });
  return {
    events: notifier,
    liveLogs: notifier !== undefined,
    asker,
    connectAsker,
    signal: cancel.signal,
    close() {
      notifier?.close();
      cancel.stop();
    },
  };
}
