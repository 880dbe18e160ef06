import type { JsonRpcResponse, RawClientDispatch } from "@modelcontextprotocol/ext-tasks/client";

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;
type Rpc = { id?: unknown; result?: unknown; error?: unknown };

let next = 0;

/**
 * What the tasks extension's client (`@modelcontextprotocol/ext-tasks`) needs to reach a 2026-07-28
 * server: one JSON-RPC request POSTed with the protocol's headers (`Mcp-Method`, and `Mcp-Name` for
 * tools/call and tasks/*), its JSON or SSE answer read back.
 */
export function taskDispatch(fetchImpl: Fetch, url: URL): RawClientDispatch {
  return async (request, options = {}) => {
    const message = request as { method: string; params?: { name?: unknown; taskId?: unknown } };
    const id = `task-${++next}`;
    const headers = new Headers({
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": message.method,
    });
    const name = message.method === "tools/call" ? message.params?.name : message.params?.taskId;
    if (typeof name === "string") headers.set("Mcp-Name", name);
    for (const [k, v] of Object.entries(options.context?.headers ?? {})) headers.set(k, v);
    const res = await fetchImpl(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id, ...message }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const replies: Rpc[] = (res.headers.get("Content-Type") ?? "").includes("text/event-stream")
      ? (await res.text())
          .split("\n\n")
          .map((block) =>
            block
              .split("\n")
              .filter((line) => line.startsWith("data:"))
              .map((line) => line.slice(5).trimStart())
              .join("\n"),
          )
          .filter((data) => data !== "")
          .map((data) => JSON.parse(data) as Rpc)
      : [(await res.json()) as Rpc];
    const reply = replies.find((r) => r.id === id && ("result" in r || "error" in r));
    if (!reply) throw new Error(`no JSON-RPC answer to ${message.method} (HTTP ${res.status})`);
    return (
      "error" in reply && reply.error !== undefined
        ? { kind: "error", error: reply.error }
        : { kind: "result", result: reply.result }
    ) as JsonRpcResponse;
  };
}
