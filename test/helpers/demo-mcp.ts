import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import type { CatalogTool } from "../../shared/contract/tools";
import { createDemoApp } from "../../workers/demo-upstream/app";
import { createStore, type DemoStore } from "../../workers/demo-upstream/data/store";
import type { Customer, Ticket } from "../../workers/demo-upstream/schemas";
import { rankCatalog } from "../../workers/gateway/discovery/search";
import { catalogTool } from "./catalog-tool";

interface ToolResult {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
export interface RpcResponse {
  jsonrpc: "2.0";
  id: number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

/** A demo app over its own store, so tests that write do not disturb the others. */
export function demo(store: DemoStore = createStore()) {
  const app = createDemoApp(() => store);
  let nextId = 1;
  const post = (body: string, headers: Record<string, string> = MCP_HEADERS) =>
    app.fetch(new Request("http://demo/mcp", { method: "POST", headers, body }));
  async function rpc(method: string, params: unknown = {}): Promise<RpcResponse> {
    const res = await post(JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }));
    expect(res.status).toBe(200);
    return (await res.json()) as RpcResponse;
  }
  async function call(name: string, args: unknown = {}): Promise<ToolResult> {
    const res = await rpc("tools/call", { name, arguments: args });
    expect(res.error).toBeUndefined();
    return res.result as unknown as ToolResult;
  }
  /** A successful call's structured content (and that its text is the same JSON). */
  async function ok<T>(name: string, args: unknown = {}): Promise<T> {
    const result = await call(name, args);
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
    return result.structuredContent as T;
  }
  /** A failed call's message. */
  async function fails(name: string, args: unknown = {}): Promise<string> {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    return result.content.map((c) => c.text).join("\n");
  }
  return { app, store, post, rpc, call, ok, fails };
}

/** The demo's tools as the gateway's catalog holds them (server `demo`), from its own tools/list. */
export async function demoCatalog(): Promise<CatalogTool[]> {
  const listed = ListToolsResultSchema.parse((await demo().rpc("tools/list")).result);
  return listed.tools.map((tool) => ({
    ...catalogTool("demo", tool.name, tool.description ?? ""),
    inputSchema: tool.inputSchema,
  }));
}

/** The demo tool `search_tools` ranks first for a query, by its name on the demo server. */
export async function demoFirstOf(): Promise<(query: string) => string | undefined> {
  const desk = await demoCatalog();
  return (query) => rankCatalog(desk, { query })[0]?.name;
}

export interface TicketPage {
  tickets: Ticket[];
  total: number;
  nextCursor?: string;
}
export interface CustomerPage {
  customers: Customer[];
  total: number;
  nextCursor?: string;
}
