import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { z } from "zod";
import { sha256 } from "../../shared/hash";
import type { UpstreamServer } from "../../workers/gateway/upstreams/config";

/**
 * A real MCP server (the SDK's, stateless) behind a Fetcher, standing in for a service binding.
 * `down` makes it answer 503; `tools` sets how many extra tools it lists (for pagination and change).
 */
export function fakeUpstream(name = "fake") {
  const state = { down: false, calls: 0, extraTools: 0 };
  const fetcher = {
    async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      if (state.down) return new Response("upstream down", { status: 503 });
      const server = new McpServer(
        { name, version: "1.0.0" },
        { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
      );
      server.registerTool(
        "add",
        {
          description: "Add two numbers.",
          inputSchema: { a: z.number(), b: z.number() },
          outputSchema: { sum: z.number() },
        },
        async ({ a, b }) => {
          state.calls++;
          return { content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } };
        },
      );
      server.registerTool("fail", { description: "Always fails." }, async () => ({
        content: [{ type: "text", text: "nope" }],
        isError: true,
      }));
      server.registerTool("hang", { description: "Never answers." }, () => new Promise<never>(() => {}));
      for (let i = 0; i < state.extraTools; i++) {
        server.registerTool(`extra_${i}`, { description: `Extra tool ${i}.` }, async () => ({
          content: [{ type: "text", text: `${i}` }],
        }));
      }
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
      await server.connect(transport);
      return transport.handleRequest(new Request(input, init));
    },
  } as unknown as Fetcher;
  return { state, fetcher };
}

export async function upstreamServer(name: string, fetcher: Fetcher): Promise<UpstreamServer> {
  return {
    name,
    url: `https://${name}.internal/mcp`,
    service: fetcher,
    headers: {},
    transport: "streamable-http",
    configHash: await sha256(`${name}-${crypto.randomUUID()}`),
  };
}

/** An upstream whose tools/list comes in pages of `pageSize` (the SDK's McpServer never pages). */
export function pagedUpstream(total: number, pageSize: number): Fetcher {
  return {
    async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      const server = new Server({ name: "paged", version: "1.0.0" }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async (request) => {
        const start = Number(request.params?.cursor ?? 0);
        const tools = Array.from({ length: Math.min(pageSize, total - start) }, (_, i) => ({
          name: `tool_${start + i}`,
          description: `Tool number ${start + i}.`,
          inputSchema: { type: "object" as const },
        }));
        const next = start + pageSize;
        return next < total ? { tools, nextCursor: String(next) } : { tools };
      });
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
      await server.connect(transport);
      return transport.handleRequest(new Request(input, init));
    },
  } as unknown as Fetcher;
}
