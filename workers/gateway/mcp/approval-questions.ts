import {
  type ElicitRequest,
  type ElicitRequestFormParams,
  inputRequired,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type RequestId,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { REMEMBER } from "../../../durable-objects/approvals/approval";
import type { ApprovalAsker, ApprovalQuestion } from "../approvals/asker";
import { approvalDesk } from "../approvals/desk";
import type { RequestContext } from "../request/context";
import type { ClientLink } from "./client-link";
import { CONNECT_QUESTION_ID, declineConnect } from "./connect-questions";
import { asSpec } from "./spec";

const APPROVAL_ID = /^apr_[0-9a-f]{24}$/;

/** MCP 2026-07-28: the key of the approval question in `inputRequests` / `inputResponses`. */
export const INPUT_KEY = "approval";
export const APPROVAL_ANSWER = z.object({ approve: z.boolean(), remember: z.enum(REMEMBER).optional() });

/** MCP 2026-07-28: the form that asks the person behind the client about one approval. */
export function approvalRequest(question: ApprovalQuestion) {
  return inputRequired.elicit({
    mode: "form",
    message: questionText(question),
    requestedSchema: REQUESTED_SCHEMA,
  });
}

/** The form a person fills in: approve (required) and how long to remember it. */
export const REQUESTED_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    approve: { type: "boolean", title: "Approve this call", description: "Run the call (false: deny it)" },
    remember: {
      type: "string",
      title: "Remember",
      description:
        "call: ask again next time; execution: approve this tool for the rest of this run; session: for the rest of this session",
      enum: [...REMEMBER],
      default: "call",
    },
  },
  required: ["approve"],
};

/**
 * Asks the client of an `execute` (MCP 2025-11-25) on that request's stream, in form mode: the
 * message and the form, answered in the client. The question's JSON-RPC id is the approval's id:
 * the client's answer comes back in another POST, maybe to another isolate, and goes straight to
 * the desk (`answerApprovals`). The SDK numbers a server's own requests from 0 per server instance,
 * and ours live one HTTP request, so its ids would collide between executions of one session. When
 * someone else decided first, the question is withdrawn with notifications/cancelled.
 */
export function formAsker(link: ClientLink, requestId: RequestId): ApprovalAsker {
  return elicitation(
    link,
    requestId,
    (q) => ({ mode: "form", message: questionText(q), requestedSchema: REQUESTED_SCHEMA }),
    (q, decidedBy) =>
      decidedBy === "client"
        ? undefined
        : { method: "notifications/cancelled", params: { requestId: q.id, reason: "decided elsewhere" } },
  );
}

/**
 * Asks a client that declared only URL elicitation: it shows the person the approval page
 * (`/approve/{id}`), where they sign in with their team's API key and decide; when the approval is
 * decided, notifications/elicitation/complete tells the client.
 */
export function urlAsker(link: ClientLink, requestId: RequestId, origin: string): ApprovalAsker {
  return elicitation(
    link,
    requestId,
    (q) => ({
      mode: "url",
      elicitationId: q.id,
      url: `${origin}/approve/${q.id}`,
      message: `${questionText(q)}\nOpen the page to decide.`,
    }),
    (q) => ({ method: "notifications/elicitation/complete", params: { elicitationId: q.id } }),
  );
}

/**
 * Sends `elicitation/create` with the approval's id, and `withdrawn` once the approval is decided
 * (the signal's reason says by whom). Messages go to the transport as they are: the SDK server
 * checks the client's capabilities before it sends elicitation messages, and a server made for one
 * request never saw them (the session record did: mcp/streaming.ts). The answer never resolves
 * here: it reaches the desk.
 */
function elicitation(
  link: ClientLink,
  requestId: RequestId,
  params: (q: ApprovalQuestion) => ElicitRequest["params"],
  withdrawn: (q: ApprovalQuestion, decidedBy: unknown) => Omit<JSONRPCNotification, "jsonrpc"> | undefined,
): ApprovalAsker {
  return {
    async ask(question, signal) {
      const request: JSONRPCRequest = {
        jsonrpc: "2.0",
        id: question.id,
        method: "elicitation/create",
        params: params(question),
      };
      await link.send(request, requestId);
      signal.addEventListener("abort", () => {
        const notification = withdrawn(question, signal.reason);
        if (notification) link.send({ jsonrpc: "2.0", ...notification }, requestId).catch(() => {});
      });
      return new Promise(() => {});
    },
  };
}

export function questionText(q: ApprovalQuestion): string {
  const seconds = Math.round(q.timeoutMs / 1000);
  return `Code run by the agent wants to call ${q.tool} (server "${q.server}"; needs approval: ${q.rule}).\nArguments: ${q.args}\nApprove within ${seconds} s, or the call fails.`;
}

/**
 * Client answers to approval questions among `messages`, given to the desk (the team's own
 * approvals only); returns the messages that were something else. An answer that is not an
 * accepted form with `approve: true` denies; an error answer (the client could not ask) leaves the
 * approval to an operator or the timeout.
 */
export async function answerApprovals(ctx: RequestContext, messages: unknown[]): Promise<unknown[]> {
  const rest: unknown[] = [];
  const answers: Promise<unknown>[] = [];
  for (const message of messages) {
    const id = (message as { id?: unknown } | null)?.id;
    const isResponse = typeof message === "object" && message !== null && !("method" in message);
    // A client's answer to a connect question: the call waits for the connection itself, unless
    // the person declined (or the client could not ask): then the link is dropped and it stops.
    if (typeof id === "string" && isResponse && CONNECT_QUESTION_ID.test(id)) {
      const answer = asSpec("ElicitResult", asSpec("JSONRPCResultResponse", message)?.result);
      if (answer?.action !== "accept") answers.push(declineConnect(ctx, id.slice("connect_".length)));
      continue;
    }
    const isAnswer = typeof id === "string" && APPROVAL_ID.test(id) && isResponse;
    if (!isAnswer) {
      rest.push(message);
      continue;
    }
    const response = asSpec("JSONRPCResultResponse", message);
    if (!response) continue;
    const result = asSpec("ElicitResult", response.result);
    // Accepted without content: the person agreed to open the approval page (URL mode), where they decide.
    if (result?.action === "accept" && result.content === undefined) continue;
    const content = result?.action === "accept" ? result.content : undefined;
    const remember = REMEMBER.find((r) => r === content?.remember) ?? "call";
    answers.push(
      approvalDesk(ctx.env).decide(
        id,
        { approve: content?.approve === true, by: "client", remember },
        ctx.team,
      ),
    );
  }
  await Promise.all(answers);
  return rest;
}
