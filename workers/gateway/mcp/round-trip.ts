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
import { approvalRequest, INPUT_KEY } from "./approval-questions";
import { toToolResult } from "./execute-answer";
import { declaredCapabilities } from "./spec";

/** What an `input_required` answer carries back (signed): the run, and the approval it asked about. */
export interface RoundState {
  run: string;
  approval: string;
}

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
 * Whether an `execute` on MCP 2026-07-28 should run detached so that an approval can be asked with
 * `input_required`: the team's policy may ask, and the client declared elicitation.
 */
export function asksByRoundTrip(ctx: RequestContext, extra: ServerContext): boolean {
  if (ctx.mcpEra !== "modern" || ctx.config.approvals === null) return false;
  return declaredCapabilities(extra.mcpReq.envelope)?.elicitation !== undefined;
}

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
        requestState: await codec.mint({ run, approval: event.question.id }),
      });
      return result;
    }
  }
}

/** A tool error saying what happened and what to do next. */
export function failure(message: string) {
  return { content: [{ type: "text" as const, text: message }], isError: true };
}
