import {
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { adminToken, type GatewayEnv } from "../env";
import type { RequestContext } from "../request/context";
import type { RunEvent } from "../runs/run-event";
import { upstreamsFor } from "../upstreams";
import { isPerUser } from "../upstreams/credentials";
import { approvalRequest, INPUT_KEY } from "./approval-questions";
import { toToolResult } from "./execute-answer";
import { declaredCapabilities } from "./spec";

/**
 * What an `input_required` answer carries back (signed): the run, and the question it asked — an
 * approval's id (`apr_…`) or a connect flow's (`cf_…`).
 */
export interface RoundState {
  run: string;
  question: string;
}

/** Per-isolate state: the requestState codec, made once per secret. */
let signer: { secret: string; codec: RequestStateCodec<RoundState> } | undefined;

/**
 * The signer of `requestState`, keyed from the deployment's secret (ADMIN_TOKEN, else DEV_API_KEY):
 * every isolate has the same key. What the state names is checked against the caller's team anyway
 * (the run's object, the desk).
 */
export function roundStateCodec(env: GatewayEnv): RequestStateCodec<RoundState> {
  const secret = adminToken(env) ?? env.DEV_API_KEY ?? "";
  if (signer?.secret !== secret) {
    // HMAC keys longer than the hash's block are hashed first: the label and padding cost nothing.
    const key = `mcp-request-state:${secret}`.padEnd(32, "\0");
    signer = { secret, codec: createRequestStateCodec<RoundState>({ key, ttlSeconds: 900 }) };
  }
  return signer.codec;
}

/**
 * Whether an `execute` on MCP 2026-07-28 should run detached so that a question can be asked with
 * `input_required`: the client declared elicitation, and the team's policy may ask for approvals
 * (form) or a per-user server may need the user to connect (URL mode).
 */
export async function asksByRoundTrip(ctx: RequestContext, extra: ServerContext): Promise<boolean> {
  if (ctx.mcpEra !== "modern") return false;
  const elicitation = declaredCapabilities(extra.mcpReq.envelope)?.elicitation;
  if (elicitation === undefined) return false;
  if (ctx.config.approvals !== null) return true;
  return elicitation.url !== undefined && (await upstreamsFor(ctx)).servers.some(isPerUser);
}

/** MCP 2026-07-28: the key of a connect link in `inputRequests` / `inputResponses`. */
export const CONNECT_KEY = "connect";

/** The MCP answer for a run's event: its result, `input_required` for its question, or a failure. */
export async function runAnswer(ctx: RequestContext, run: string, event: RunEvent) {
  switch (event.kind) {
    case "result":
      return toToolResult(event.result);
    case "lost":
      return failure(`${event.message}; run execute again`);
    case "progress":
      return failure("internal: a progress event is not an answer");
    case "question": {
      const codec = roundStateCodec(ctx.env);
      const result: InputRequiredResult = inputRequired({
        inputRequests: { [INPUT_KEY]: approvalRequest(event.question) },
        requestState: await codec.mint({ run, question: event.question.id }),
      });
      return result;
    }
    case "connect": {
      const { id, url, message } = event.connect;
      const result: InputRequiredResult = inputRequired({
        inputRequests: {
          [CONNECT_KEY]: inputRequired.elicitUrl({ url, message }),
        },
        requestState: await roundStateCodec(ctx.env).mint({ run, question: id }),
      });
      return result;
    }
  }
}

/** A tool error saying what happened and what to do next. */
export function failure(message: string) {
  return { content: [{ type: "text" as const, text: message }], isError: true };
}
