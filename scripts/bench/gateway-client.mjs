// HTTP client for the gateway under `npm run bench`: REST calls, MCP sessions over streamable HTTP
// (JSON responses), and `execute` by either path. Every call throws on a transport or protocol error.

/** @param {string} base the gateway's origin; @param {string} apiKey sent as X-API-Key */
export function gatewayClient(base, apiKey) {
  let rpcId = 0;

  async function request(method, path, payload, headers = {}) {
    const res = await fetch(base + path, {
      method,
      headers: { "content-type": "application/json", "x-api-key": apiKey, ...headers },
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 400)}`);
    try {
      return { headers: res.headers, ...(text ? JSON.parse(text) : {}) };
    } catch {
      throw new Error(`${method} ${path} answered with non-JSON: ${text.slice(0, 400)}`);
    }
  }

  const post = (path, payload, headers) => request("POST", path, payload, headers);
  const get = async (path) => {
    const { headers: _, ...body } = await request("GET", path);
    return body;
  };

  /** A new MCP session: the request headers that carry it. */
  async function openMcpSession() {
    const headers = { accept: "application/json, text/event-stream" };
    const clientInfo = { name: "edge-code-mcp-bench", version: "1" };
    const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo };
    const init = await post("/mcp", { jsonrpc: "2.0", id: ++rpcId, method: "initialize", params }, headers);
    const id = init.headers.get("mcp-session-id");
    if (!id || !init.result) throw new Error(`MCP initialize gave no session: ${JSON.stringify(init)}`);
    const session = { ...headers, "mcp-session-id": id, "mcp-protocol-version": init.result.protocolVersion };
    await post("/mcp", { jsonrpc: "2.0", method: "notifications/initialized" }, session);
    return session;
  }

  /** One JSON-RPC request in `session`; resolves to its `result`. */
  async function rpc(session, method, params) {
    const body = await post("/mcp", { jsonrpc: "2.0", id: ++rpcId, method, params }, session);
    if (body.error) throw new Error(`MCP ${method} failed: ${JSON.stringify(body.error)}`);
    return body.result;
  }

  /**
   * One MCP 2026-07-28 request (stateless: no session, the `_meta` envelope on each request, the
   * Mcp-Method / Mcp-Name headers); resolves to its `result`.
   */
  async function rpcModern(method, params, name) {
    const headers = {
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name ? { "mcp-name": name } : {}),
    };
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "edge-code-mcp-bench", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const body = await post(
      "/mcp",
      { jsonrpc: "2.0", id: ++rpcId, method, params: { ...params, _meta } },
      headers,
    );
    if (body.error) throw new Error(`MCP 2026-07-28 ${method} failed: ${JSON.stringify(body.error)}`);
    return body.result;
  }

  /** MCP tools/call; resolves to the CallToolResult, which must not be an error. */
  async function callTool(session, name, args) {
    const result = await rpc(session, "tools/call", { name, arguments: args });
    if (result.isError) throw new Error(`tools/call ${name} is an error: ${text(result).slice(0, 600)}`);
    return result;
  }

  /** REST /v1/execute; resolves to the execution's result object, which must have no error. */
  async function execute(code) {
    const { headers: _, ...out } = await post("/v1/execute", { code });
    if (out.error)
      throw new Error(`execute failed: ${JSON.stringify(out.error).slice(0, 600)}\ncode: ${code}`);
    if (out.stats?.truncated) throw new Error(`execute output was truncated; code: ${code.slice(0, 200)}`);
    return out;
  }

  return { base, post, get, openMcpSession, rpc, rpcModern, callTool, execute };
}

/** The text content of an MCP tool result: what a client hands the model. */
export function text(result) {
  return (result.content ?? []).map((c) => (c.type === "text" ? c.text : JSON.stringify(c))).join("\n");
}
