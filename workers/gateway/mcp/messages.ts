import { z } from "zod";
import { invalidRequest } from "../http/errors";
import type { RequestContext } from "../request/context";
import { sessionStub } from "../sessions/store";
import { asSpec } from "./spec";

// Only what the gateway decides on; the SDK's transport validates the messages in full.
const RequestId = z.union([z.string(), z.number()]);
const Initialize = z.object({ method: z.literal("initialize") });
const RpcRequest = z.object({ method: z.string(), id: RequestId });
const Cancellation = z.object({
  method: z.literal("notifications/cancelled"),
  params: z.object({ requestId: RequestId }),
});

export const isInitialize = (message: unknown) => Initialize.safeParse(message).success;

function requestIds(batch: unknown[]): Array<string | number> {
  return batch.flatMap((m) => {
    const request = RpcRequest.safeParse(m);
    return request.success ? [request.data.id] : [];
  });
}

/** Batch faults whatever the session: empty, initialize inside (MCP forbids it), a request id twice. */
export function requireValidBatch(batch: unknown[]): void {
  if (batch.length === 0) {
    throw invalidRequest("empty_batch", "Invalid Request: the JSON-RPC batch is empty");
  }
  if (batch.some(isInitialize)) {
    throw invalidRequest(
      "initialize_in_batch",
      "Invalid Request: initialize must be sent alone, never in a JSON-RPC batch",
    );
  }
  const seen = new Set<string | number>();
  for (const id of requestIds(batch)) {
    if (seen.has(id)) {
      throw invalidRequest(
        "duplicate_request_id",
        `Invalid Request: request id ${JSON.stringify(id)} appears more than once in the batch`,
      );
    }
    seen.add(id);
  }
}

/**
 * Drops cancellations of requests in the same batch. The SDK never answers a cancelled request,
 * so the JSON response would wait for it forever; the request runs to completion instead.
 */
export function withoutSelfCancellations(batch: unknown[]): unknown[] {
  const ids = new Set(requestIds(batch));
  return batch.filter((m) => {
    const cancel = Cancellation.safeParse(m);
    return !(cancel.success && ids.has(cancel.data.params.requestId));
  });
}

/**
 * notifications/cancelled among `messages`, handed to the MCP session's object (where the running
 * execution listens); returns the other messages.
 */
export async function cancelRequests(ctx: RequestContext, messages: unknown[]): Promise<unknown[]> {
  const session = ctx.mcpSession;
  const rest: unknown[] = [];
  const sends: Promise<void>[] = [];
  for (const message of messages) {
    const requestId = asSpec("CancelledNotification", message)?.params?.requestId;
    if (requestId === undefined || !session) {
      rest.push(message);
      continue;
    }
    sends.push(sessionStub(ctx.env, session.id).cancelRequest(ctx.team, JSON.stringify(requestId)));
  }
  await Promise.all(sends);
  return rest;
}
