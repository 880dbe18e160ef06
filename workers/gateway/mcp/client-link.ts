import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/server";

/** What a tool handler can send to its client on the request's stream. */
export interface ClientLink {
  /** a message on the stream of request `relatedRequestId` (the SDK transport's send) */
  send(message: JSONRPCMessage, relatedRequestId: RequestId): Promise<void>;
}
