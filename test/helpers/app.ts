import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { createApp } from "../../workers/gateway/app";
import { TEST_API_KEY } from "./keys";

const app = createApp();

/** Calls the gateway's Hono app directly, with the real bindings. */
export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.request(path, init, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** Like request, with some variables of the environment replaced (a fresh env: config is cached per env). */
export async function requestWith(
  vars: Record<string, string>,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.request(path, init, { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

export const AUTH = { "X-API-Key": TEST_API_KEY };
export const MCP_HEADERS = {
  ...AUTH,
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};

export function postJson(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return request(path, {
    method: "POST",
    headers: { ...AUTH, "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

let nextId = 1;
export function rpc(
  method: string,
  params: unknown = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  return request("/mcp", {
    method: "POST",
    headers: { ...MCP_HEADERS, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
  });
}

export async function initialize(): Promise<string> {
  const res = await rpc("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "unit-test", version: "1.0.0" },
  });
  const id = res.headers.get("Mcp-Session-Id");
  if (res.status !== 200 || !id) throw new Error(`initialize failed: ${res.status} ${await res.text()}`);
  return id;
}
