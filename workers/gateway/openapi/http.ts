import { readAtMost } from "../../../shared/read-capped";
import type { Span } from "../tracing/trace";
import { upstreamFetch } from "../tracing/upstream-fetch";
import type { UpstreamServer } from "../upstreams/config";

const MAX_REDIRECTS = 5;

/** A redirect to another origin than the request's: not followed (the API's server only). */
export class RedirectRefused extends Error {
  override name = "RedirectRefused";
  constructor(readonly to: string) {
    super(`it redirected to another host (${to}), which the gateway does not follow`);
  }
}

/** A body over its cap: reading stopped there. */
export class TooLarge extends Error {
  override name = "TooLarge";
}

/**
 * `url` fetched through the server's service binding (or the network), following redirects only
 * within the same origin: a `Location` on another origin throws RedirectRefused, so headers and
 * arguments never reach a host the operator did not name. With `span`, each request is a client span
 * carrying `traceparent`.
 */
export async function sendTo(
  server: UpstreamServer,
  url: string,
  init: RequestInit,
  span?: Span,
): Promise<Response> {
  const direct = (to: string | URL, request?: RequestInit) =>
    server.service ? server.service.fetch(String(to), request) : fetch(to, request);
  const send = span ? upstreamFetch(direct, span) : direct;
  let target = new URL(url);
  let request: RequestInit = { ...init, redirect: "manual" };
  for (let hop = 0; ; hop++) {
    const res = await send(target.href, request);
    const location = res.status >= 300 && res.status < 400 ? res.headers.get("Location") : null;
    if (location === null) return res;
    await res.body?.cancel();
    const next = new URL(location, target);
    if (next.origin !== target.origin) throw new RedirectRefused(next.host);
    if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && request.method === "POST")) {
      const { body: _body, ...rest } = request;
      request = { ...rest, method: "GET" };
    }
    target = next;
  }
}

/** The body's bytes, reading no more than `max`: past it the stream is cancelled and TooLarge thrown. */
export async function readCapped(
  res: Response,
  max: number,
  message: (max: number) => string,
): Promise<Uint8Array> {
  const declared = Number(res.headers.get("Content-Length") ?? Number.NaN);
  if (declared > max) {
    await res.body?.cancel();
    throw new TooLarge(message(max));
  }
  return readAtMost(res.body, max, () => new TooLarge(message(max)));
}
