// The 22 servers of the 297-tool corpus (bench/discovery/servers.mjs) as real upstream MCP servers on
// one loopback port: `http://127.0.0.1:<port>/<name>/mcp` answers initialize and tools/list with that
// server's tools exactly as collected (inputSchema, outputSchema, annotations, …), and tools/call with
// an isError result. Streamable HTTP, stateless, JSON responses (the SDK's low-level Server and
// StreamableHTTPServerTransport on node:http, a fresh pair per request).
//
//   node scripts/bench/corpus-upstream.mjs [--port 8790]    serve until interrupted, print the URLs
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { corpusServers } from "../../bench/discovery/servers.mjs";

const ROUTE = /^\/([a-z][a-z0-9_-]{0,31})\/mcp\/?$/;

function mcpServer(entry) {
  const server = new Server(
    { name: entry.name, version: "corpus" },
    { capabilities: { tools: {} }, instructions: entry.description },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: entry.tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: "text", text: `corpus tools are not callable (${entry.name}.${request.params.name})` }],
    isError: true,
  }));
  return server;
}

function plain(res, status, text) {
  res.writeHead(status, { "content-type": "text/plain" }).end(text);
}

/**
 * Starts the server on 127.0.0.1 (`port` 0: a free one). Resolves to `{ port, url(name), servers, stop }`:
 * `url(name)` is that corpus server's MCP endpoint; `stop()` closes it (idempotent).
 */
export async function startCorpusUpstream({ port = 0 } = {}) {
  const servers = corpusServers();
  const byName = new Map(servers.map((entry) => [entry.name, entry]));
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const entry = byName.get(ROUTE.exec(path)?.[1] ?? "");
    if (!entry) return plain(res, 404, "no such corpus server");
    // Stateless: no sessions, so GET (a server-initiated stream) and DELETE have nothing to act on.
    if (req.method !== "POST") return plain(res, 405, "method not allowed");
    const server = mcpServer(entry);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => {
      transport.close().catch(() => {});
      server.close().catch(() => {});
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((err) => {
        if (!res.headersSent) plain(res, 500, String(err?.message ?? err));
        else res.end();
      });
  });
  await new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, "127.0.0.1", resolve);
  });
  const bound = http.address().port;
  let stopped;
  return {
    port: bound,
    servers,
    url: (name) => {
      if (!byName.has(name)) throw new Error(`no corpus server named ${name}`);
      return `http://127.0.0.1:${bound}/${name}/mcp`;
    },
    stop: () => {
      stopped ??= new Promise((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      return stopped;
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { port: { type: "string", default: "0" } } });
  const upstream = await startCorpusUpstream({ port: Number(values.port) });
  const total = upstream.servers.reduce((sum, s) => sum + s.tools.length, 0);
  console.log(`corpus upstream: ${upstream.servers.length} servers, ${total} tools`);
  for (const s of upstream.servers) console.log(`  ${s.name.padEnd(20)} ${upstream.url(s.name)}`);
  for (const signal of ["SIGINT", "SIGTERM"])
    process.once(signal, () => upstream.stop().then(() => process.exit(0)));
}
