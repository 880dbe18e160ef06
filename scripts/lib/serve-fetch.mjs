// A web-standard `fetch(request) => Response` handler served over HTTP on 127.0.0.1, for the Node
// upstreams tests and benchmarks start beside the stack (era-upstreams.mjs, test/fixtures/oauth-upstream).
import { createServer } from "node:http";

/**
 * Serves `handler` on 127.0.0.1 (`port`, default a free one). Bodies are read whole and answered
 * whole (no streaming); a handler that throws answers 500 with the error's text.
 * @param {(request: Request) => Promise<Response>} handler
 * @param {{ port?: number }} [options]
 * @returns {Promise<{ base: string, port: number, close: () => Promise<void> }>}
 */
export async function serveFetch(handler, { port = 0 } = {}) {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const hasBody = chunks.length > 0 && req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(url, {
        method: req.method,
        headers,
        ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
      });
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  return {
    base: `http://127.0.0.1:${bound}`,
    port: bound,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
