// A loopback HTTP proxy that adds `Authorization: Bearer <key>` to every request and forwards it
// unchanged otherwise (method, path, Host and Origin headers, body), streaming the answer back (SSE
// included). For clients that cannot send a header of their own, such as the MCP conformance suite.
import { createServer, request } from "node:http";

/**
 * @param {{ target: string, key: string }} options target: the gateway's origin, e.g. http://127.0.0.1:8787
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export function startAuthProxy({ target, key }) {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${key}` };
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        res.flushHeaders();
        answer.pipe(res);
      },
    );
    forward.on("error", (err) => {
      if (res.headersSent) res.destroy(err);
      else res.writeHead(502, { "content-type": "text/plain" }).end(`proxy: ${err.message}`);
    });
    res.on("close", () => forward.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
