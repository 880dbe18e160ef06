// Two small MCP upstreams of different protocol eras, counting what crosses the wire, for the tests
// of the gateway's upstream client (test/unit/upstream-client.test.ts, test/e2e/upstream-eras.e2e.test.ts)
// and its latency figures (scripts/bench/upstream-eras.mjs):
//   modern: MCP 2026-07-28, @modelcontextprotocol/server's createMcpHandler (no sessions; `server/discover`);
//   legacy: 2025-era on the v1 SDK, sessionful as most deployed servers are (or stateless).
import { createServer } from "node:http";
import { McpServer as LegacyMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

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
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname === "/wire") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ modern: modern.wire, legacy: legacy.wire }));
        return;
      }
      const upstream =
        url.pathname === "/modern/mcp" ? modern : url.pathname === "/legacy/mcp" ? legacy : null;
      if (!upstream) {
        res.writeHead(404).end();
        return;
      }
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const request = new Request(url, {
        method: req.method,
        headers,
        ...(req.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
      });
      const response = await upstream.fetch(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    base: `http://127.0.0.1:${port}`,
    modern,
    legacy,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
