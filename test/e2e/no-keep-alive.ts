// Every request of the end-to-end tests on a connection of its own. wrangler dev's proxy closes an
// idle keep-alive connection after 5 s (Node's default); a request sent on it just then fails on the
// wire with "other side closed" before the gateway sees it (seen when a test paused ~5 s between
// calls). Not something the gateway can answer, so the tests do not reuse connections.
const plainFetch = globalThis.fetch;
globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  headers.set("connection", "close");
  return plainFetch(input, { ...init, headers });
};
