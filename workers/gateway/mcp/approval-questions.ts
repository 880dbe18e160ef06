import {
  type ElicitRequestFormParams,
  ElicitResultSchema,
  type JSONRPCMessage,
  JSONRPCResultResponseSchema,
  type RequestId,
  type ServerNotification,
} from "@modelcontextprotocol/sdk/types.js";
import { REMEMBER } from "../../../durable-objects/approvals/approval";
import type { ApprovalAsker, ApprovalQuestion } from "../approvals/asker";
import { approvalDesk } from "../approvals/desk";
import type { RequestContext } from "../context/request-context";

/** What a tool handler can send to its client on the request's stream. */
export interface ClientLink {
  /** a message on the stream of request `relatedRequestId` (the SDK transport's send) */
  send(message: JSONRPCMessage, relatedRequestId: RequestId): Promise<void>;
  notify(notification: ServerNotification): Promise<void>;
}

const APPROVAL_ID = /^apr_[0-9a-f]{24}$/;

/** The form a person fills in: approve (required) and how long to remember it. */
const REQUESTED_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
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
 * Asks the client of an `execute` (MCP 2025-11-25, form elicitation) on that request's stream. The
 * question's JSON-RPC id is the approval's id: the client's answer comes back in another POST,
 * maybe to another isolate, and goes straight to the desk (`answerApprovals`). The SDK numbers a
 * server's own requests from 0 per server instance, and ours live one HTTP request, so its ids
 * would collide between executions of one session. When someone else decided first, the question
 * is withdrawn with notifications/cancelled.
 */
export function formAsker(link: ClientLink, requestId: RequestId): ApprovalAsker {
  return {
    async ask(question, signal) {
      await link.send(
        {
          jsonrpc: "2.0",
          id: question.id,
          method: "elicitation/create",
          params: { mode: "form", message: questionText(question), requestedSchema: REQUESTED_SCHEMA },
        },
        requestId,
      );
      signal.addEventListener("abort", () => {
        if (signal.reason === "client") return;
        link
          .notify({
            method: "notifications/cancelled",
            params: { requestId: question.id, reason: "decided elsewhere" },
          })
          .catch(() => {});
      });
      return new Promise(() => {});
    },
  };
}

/**
 * Asks a client that declared only URL elicitation: it shows the person the approval page
 * (`/approve/{id}`), where they sign in with their team's API key and decide; when the approval is
 * decided, notifications/elicitation/complete tells the client.
 */
export function urlAsker(link: ClientLink, requestId: RequestId, origin: string): ApprovalAsker {
  return {
    async ask(question, signal) {
      await link.send(
        {
          jsonrpc: "2.0",
          id: question.id,
          method: "elicitation/create",
          params: {
            mode: "url",
            elicitationId: question.id,
            url: `${origin}/approve/${question.id}`,
            message: `${questionText(question)}\nOpen the page to decide.`,
          },
        },
        requestId,
      );
      // Sent as it is: the SDK server checks the client's capabilities, which a server made for one
      // request never saw (the session record did: mcp/streaming.ts).
      signal.addEventListener("abort", () => {
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
      });
      return new Promise(() => {});
    },
  };
}

function questionText(q: ApprovalQuestion): string {
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
    const isAnswer = typeof id === "string" && APPROVAL_ID.test(id) && !("method" in (message as object));
    if (!isAnswer) {
      rest.push(message);
      continue;
    }
    const response = JSONRPCResultResponseSchema.safeParse(message);
    if (!response.success) continue;
    const result = ElicitResultSchema.safeParse(response.data.result);
    // Accepted without content: the person agreed to open the approval page (URL mode), where they decide.
    if (result.success && result.data.action === "accept" && result.data.content === undefined) continue;
    const content = result.success && result.data.action === "accept" ? result.data.content : undefined;
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
