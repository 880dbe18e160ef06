import { type Span, SpanKind, traced } from "./trace";

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * `send`, each request a client span under `span` (HTTP semantic conventions; the URL without its
 * query, which may hold a credential) that carries `traceparent` (and the caller's `tracestate`),
 * so that an instrumented upstream joins the trace.
 */
export function upstreamFetch(send: Fetch, span: Span): Fetch {
  return (url, init) => {
    const target = new URL(String(url));
    const method = init?.method ?? "GET";
    return traced(
      span,
      method,
      {
        "http.request.method": method,
        "url.full": `${target.origin}${target.pathname}`,
        "server.address": target.hostname,
        "server.port": Number(target.port) || (target.protocol === "https:" ? 443 : 80),
      },
      async (client) => {
        const headers = new Headers(init?.headers);
        headers.set("traceparent", (client ?? span).traceparent());
        const state = span.trace.remote?.state;
        if (state) headers.set("tracestate", state);
        const response = await send(url, { ...init, headers });
        client?.set({ "http.response.status_code": response.status });
        if (response.status >= 400) client?.fail(String(response.status));
        return response;
      },
      SpanKind.CLIENT,
    );
  };
}
