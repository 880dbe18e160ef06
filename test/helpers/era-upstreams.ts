import { McpServer as LegacyMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

/** What an upstream saw on the wire: each JSON-RPC method in order, and the session ids it issued. */
export interface Wire {
  methods: string[];
  /** `mcp-session-id` of each POST (`-` for none) */
  sessionHeaders: string[];
  sessionsIssued: number;
  calls: number;
}

export const newWire = (): Wire => ({ methods: [], sessionHeaders: [], sessionsIssued: 0, calls: 0 });

/** How many times `method` crossed the wire. */
export const count = (wire: Wire, method: string): number => wire.methods.filter((m) => m === method).length;

async function record(wire: Wire, request: Request): Promise<void> {
  if (request.method !== "POST") return;
  wire.sessionHeaders.push(request.headers.get("mcp-session-id") ?? "-");
  try {
    const body: unknown = JSON.parse(await request.clone().text());
    for (const message of Array.isArray(body) ? body : [body]) {
      const method = (message as { method?: unknown }).method;
      if (typeof method === "string") wire.methods.push(method);
    }
  } catch {
    wire.methods.push("(unparsable)");
  }
}

/**
 * An MCP server that speaks 2026-07-28 (`@modelcontextprotocol/server`'s createMcpHandler: no
 * sessions, `server/discover`). `legacy: "reject"` makes it refuse 2025-era requests (initialize).
 */
export function modernUpstream(options: { name?: string; legacy?: "stateless" | "reject" } = {}) {
  const wire = newWire();
  const handler = createMcpHandler(
    () => {
      const server = new McpServer(
        { name: options.name ?? "modern", version: "2.0.0" },
        { capabilities: { tools: {} } },
      );
      server.registerTool(
        "add",
        {
          description: "Add two numbers.",
          inputSchema: z.object({ a: z.number(), b: z.number() }),
          outputSchema: z.object({ sum: z.number() }),
        },
        async ({ a, b }) => {
          wire.calls++;
          return { content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } };
        },
      );
      server.registerTool(
        "shout",
        { description: "Upper-cases a text.", inputSchema: z.object({ text: z.string() }) },
        async ({ text }) => {
          wire.calls++;
          return { content: [{ type: "text", text: text.toUpperCase() }] };
        },
      );
      return server;
    },
    { legacy: options.legacy ?? "stateless" },
  );
  return {
    wire,
    async fetch(request: Request): Promise<Response> {
      await record(wire, request);
      return handler.fetch(request);
    },
  };
}

/**
 * A 2025-era server on the v1 SDK, as most deployed servers are. It keeps sessions: a request
 * without one answers 400, an unknown session 404, and `forget()` drops every session (a restart).
 * `stateless`: no sessions at all (like workers/demo-upstream).
 */
export function legacyUpstream(name = "legacy25", { stateless = false } = {}) {
  const wire = newWire();
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  async function open(): Promise<WebStandardStreamableHTTPServerTransport> {
    const server = new LegacyMcpServer({ name, version: "1.0.0" });
    server.registerTool(
      "add",
      { description: "Add two numbers.", inputSchema: { a: z.number(), b: z.number() } },
      async ({ a, b }) => {
        wire.calls++;
        return { content: [{ type: "text", text: String(a + b) }] };
      },
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: stateless ? undefined : () => crypto.randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        wire.sessionsIssued++;
        sessions.set(id, transport);
      },
    });
    await server.connect(transport);
    return transport;
  }
  return {
    wire,
    forget: () => sessions.clear(),
    async fetch(request: Request): Promise<Response> {
      await record(wire, request);
      const id = request.headers.get("mcp-session-id");
      if (request.method === "GET") return new Response(null, { status: 405, headers: { Allow: "POST" } });
      const known = id ? sessions.get(id) : undefined;
      if (id && !known) {
        return Response.json(
          { jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } },
          { status: 404 },
        );
      }
      return (known ?? (await open())).handleRequest(request);
    },
  };
}

/** `fetch` as a Fetcher (a service binding), for UpstreamServer.service in workerd tests. */
export function asFetcher(fetch: (request: Request) => Promise<Response>): Fetcher {
  return {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(new Request(input, init)),
  } as unknown as Fetcher;
}
