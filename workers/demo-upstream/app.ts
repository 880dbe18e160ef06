import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { type DemoStore, sharedStore } from "./data/store";
import { addRestTwin } from "./rest";
import { createDemoServer } from "./server";

const MAX_BODY_BYTES = 1024 * 1024;

function rpcError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }, { status, headers });
}

/**
 * The demo upstream's HTTP surface: stateless MCP streamable HTTP on POST /mcp (JSON responses,
 * no sessions), its REST twin under /rest described by GET /openapi.json (rest.ts), and a health probe. `store` is injectable so tests can start from fresh data.
 */
export function createDemoApp(store: () => DemoStore = sharedStore): Hono {
  const app = new Hono();

  app.get("/health", (c) => c.json({ status: "ok", records: store().counts() }));

  app.post(
    "/mcp",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => rpcError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`),
    }),
    async (c) => {
      const server = createDemoServer(store());
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        return await transport.handleRequest(c.req.raw);
      } finally {
        await server.close();
      }
    },
  );
  addRestTwin(app, store);
  app.on(["GET", "DELETE"], "/mcp", () =>
    rpcError(405, "This server is stateless: POST JSON-RPC messages to /mcp", { Allow: "POST" }),
  );

  app.notFound((c) =>
    c.json({ error: { code: "not_found", message: `No route for ${c.req.method} ${c.req.path}` } }, 404),
  );
  app.onError((err, c) => {
    console.error(
      JSON.stringify({ level: "error", msg: "unhandled error", error: err.stack ?? err.message }),
    );
    return c.json({ error: { code: "internal_error", message: "Internal error" } }, 500);
  });
  return app;
}
