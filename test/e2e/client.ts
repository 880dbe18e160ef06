import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { inject } from "vitest";
import type { ExecuteResult } from "../../shared/contract/execute";
import { TEST_ADMIN_TOKEN, TEST_API_KEY } from "../helpers/keys";

export const gatewayUrl = () => inject("gatewayUrl");
export const AUTH = { Authorization: `Bearer ${TEST_API_KEY}` };

export async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${gatewayUrl()}/mcp`), {
    requestInit: { headers: AUTH },
  });
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

/** Calls the `execute` tool and returns its structured result (checked against the text copy). */
export async function execute(client: Client, args: { code: string; language?: string; timeoutMs?: number }) {
  const res = await client.callTool({ name: "execute", arguments: args });
  const structured = res.structuredContent as ExecuteResult;
  const text = (res.content as Array<{ type: string; text: string }>)[0]?.text ?? "";
  if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(structured))
    throw new Error("text and structured content differ");
  return { ...structured, isError: res.isError === true };
}

/** A call to the admin API with the test deployment's ADMIN_TOKEN. */
export function adminRequest(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${gatewayUrl()}/admin${path}`, {
    method,
    headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
