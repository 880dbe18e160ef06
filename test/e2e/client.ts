import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, inject } from "vitest";
import type { ExecuteResult } from "../../shared/contract/execute";
import { TEST_ADMIN_TOKEN, TEST_API_KEY } from "../helpers/keys";

export const gatewayUrl = () => inject("gatewayUrl");
export const AUTH: Record<string, string> = { Authorization: `Bearer ${TEST_API_KEY}` };

export async function connect(
  headers: Record<string, string> = AUTH,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${gatewayUrl()}/mcp`), {
    requestInit: { headers },
  });
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

/** Calls the `execute` tool and returns its structured result (checked against the text copy). */
export async function execute(
  client: Client,
  args: { code: string; language?: string; timeoutMs?: number; sessionId?: string },
) {
  const res = await client.callTool({ name: "execute", arguments: args });
  const structured = res.structuredContent as ExecuteResult;
  const text = (res.content as Array<{ type: string; text: string }>)[0]?.text ?? "";
  if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(structured))
    throw new Error("text and structured content differ");
  return { ...structured, isError: res.isError === true };
}

/** A raw POST /mcp of `body` (a message or a batch) with the test key; `headers` add to or replace its headers. */
export function postMcp(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${gatewayUrl()}/mcp`, {
    method: "POST",
    headers: {
      ...AUTH,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** A call to the admin API with the test deployment's ADMIN_TOKEN. */
export function adminRequest(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${gatewayUrl()}/admin${path}`, {
    method,
    headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** POST /v1/execute with `key`: status and the JSON body. */
export async function restExecute(
  body: { code: string; sessionId?: string; timeoutMs?: number; language?: string },
  headers: Record<string, string> = AUTH,
): Promise<{ status: number; body: ExecuteResult & { error?: { name: string; code?: string } } }> {
  const res = await fetch(`${gatewayUrl()}/v1/execute`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as ExecuteResult };
}

/** A team made through the admin API with one API key; returns that key's auth header. */
export async function teamWithKey(
  team: string,
  record: Record<string, unknown>,
): Promise<Record<string, string>> {
  const put = await adminRequest("PUT", `/teams/${team}`, record);
  if (!put.ok) throw new Error(`PUT team ${team}: ${put.status} ${await put.text()}`);
  const made = await adminRequest("POST", `/teams/${team}/keys`, { name: "e2e" });
  if (made.status !== 201) throw new Error(`key for ${team}: ${made.status} ${await made.text()}`);
  const { key } = (await made.json()) as { key: string };
  return { Authorization: `Bearer ${key}` };
}

/**
 * The bound of an answer that waits on nothing (`/health`, a trivial execution after a refused or
 * stopped one): ~50 ms on a laptop, up to 3.2 s seen on a starved 2-core machine; a gateway or host
 * stuck behind a hang would take that hang's whole time (seconds to minutes).
 */
export const PROMPT_MS = 5_000;

/** ms that GET /health took; the gateway must answer at once whatever a sandbox is doing. */
export async function healthMs(): Promise<number> {
  const started = Date.now();
  const res = await fetch(`${gatewayUrl()}/health`, { signal: AbortSignal.timeout(10_000) });
  expect(res.status).toBe(200);
  return Date.now() - started;
}
