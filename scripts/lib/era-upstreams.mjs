// Two small MCP upstreams of different protocol eras, counting what crosses the wire, for the tests
// of the gateway's upstream client (test/unit/upstream-client.test.ts, test/e2e/upstream-eras.e2e.test.ts)
// and its latency figures (scripts/bench/upstream-eras.mjs):
//   modern: MCP 2026-07-28, @modelcontextprotocol/server's createMcpHandler (no sessions; `server/discover`);
//   legacy: 2025-era on the v1 SDK, sessionful as most deployed servers are (or stateless).
import { McpServer as LegacyMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { serveFetch } from "./serve-fetch.mjs";

/**
 * @typedef {{ methods: string[], sessionHeaders: string[], sessionsIssued: number, calls: number }} Wire
 *   methods: each JSON-RPC method in order; sessionHeaders: `mcp-session-id` of each POST (`-` for none)
 */

/** @returns {Wire} */
export const newWire = () => ({ methods: [], sessionHeaders: [], sessionsIssued: 0, calls: 0 });

/** How many times `method` crossed the wire. @param {Wire} wire @param {string} method */
export const count = (wire, method) => wire.methods.filter((m) => m === method).length;

/** @param {Wire} wire @param {Request} request */
async function record(wire, request) {
  if (request.method !== "POST") return;
  wire.sessionHeaders.push(request.headers.get("mcp-session-id") ?? "-");
  try {
    const body = JSON.parse(await request.clone().text());
    for (const message of Array.isArray(body) ? body : [body]) {
      if (typeof message?.method === "string") wire.methods.push(message.method);
    }
  } catch {
    wire.methods.push("(unparsable)");
  }
}

const sum =
  (wire) =>
  async ({ a, b }) => {
    wire.calls++;
    return { content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } };
  };

/**
 * A server that speaks 2026-07-28. `legacy: "reject"` makes it refuse 2025-era requests (initialize).
 * @param {{ name?: string, legacy?: "stateless" | "reject" }} [options]
 */
export function modernUpstream(options = {}) {
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
        sum(wire),
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
    /** @param {Request} request @returns {Promise<Response>} */
    async fetch(request) {
      await record(wire, request);
      return handler.fetch(request);
    },
  };
}

/**
 * A 2025-era server on the v1 SDK. It keeps sessions: a request without one answers 400, an unknown
 * session 404, and `forget()` drops every session (a restart). `stateless`: no sessions at all
 * (like workers/demo-upstream).
 * @param {string} [name] @param {{ stateless?: boolean }} [options]
 */
export function legacyUpstream(name = "legacy25", { stateless = false } = {}) {
  const wire = newWire();
  /** @type {Map<string, WebStandardStreamableHTTPServerTransport>} */
  const sessions = new Map();
  async function open() {
    const server = new LegacyMcpServer({ name, version: "1.0.0" });
    server.registerTool(
      "add",
      {
        description: "Add two numbers.",
        inputSchema: { a: z.number(), b: z.number() },
        outputSchema: { sum: z.number() },
      },
      sum(wire),
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
    /** @param {Request} request @returns {Promise<Response>} */
    async fetch(request) {
      await record(wire, request);
      if (request.method === "GET") return new Response(null, { status: 405, headers: { Allow: "POST" } });
      const id = request.headers.get("mcp-session-id");
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

/**
 * Both upstreams over HTTP on 127.0.0.1 (a free port): `/modern/mcp` and `/legacy/mcp`; GET /wire
 * gives what each saw, POST /wire/reset forgets it.
 * @returns {Promise<{ base: string, modern: ReturnType<typeof modernUpstream>, legacy: ReturnType<typeof legacyUpstream>, close: () => Promise<void> }>}
 */
export async function serveEraUpstreams() {
  const modern = modernUpstream();
  const legacy = legacyUpstream();
  const served = await serveFetch(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/wire") return Response.json({ modern: modern.wire, legacy: legacy.wire });
    const upstream = pathname === "/modern/mcp" ? modern : pathname === "/legacy/mcp" ? legacy : null;
    return upstream ? upstream.fetch(request) : new Response(null, { status: 404 });
  });
  return { base: served.base, modern, legacy, close: served.close };
}
