import { concatBytes } from "../../../shared/read-capped";
import { egressDecision } from "./policy";

export interface EgressFetchOptions {
  team: string;
  /** the team's egress allowlist: host patterns (see policy.ts) */
  allowlist: string[];
  /** sends one hop; the global fetch unless a test fakes it */
  fetcher?: (req: Request) => Promise<Response>;
  /** redirects followed before giving up; 5 unless set */
  maxRedirects?: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** the largest body kept so that a 307/308 can send it again */
export const MAX_REPLAY_BYTES = 1024 * 1024;
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];
// the fetch standard's request-body-header names, dropped with the body when a redirect turns into GET
const BODY_HEADERS = [
  "content-type",
  "content-length",
  "content-encoding",
  "content-language",
  "content-location",
];

/**
 * One fetch from a team's sandboxed code. Redirects are followed here, not by the runtime, so that
 * every hop's target is checked against the team's patterns before anything is sent to it.
 */
export async function egressFetch(request: Request, options: EgressFetchOptions): Promise<Response> {
  const { team, allowlist } = options;
  const fetcher = options.fetcher ?? ((req: Request) => fetch(req));
  const maxRedirects = Math.max(0, options.maxRedirects ?? 5);
  const refusal = (reason: string) =>
    `${reason} for team "${team}" (allowed: ${allowlist.length > 0 ? allowlist.join(", ") : "none"})`;

  let url = new URL(request.url);
  const first = egressDecision(url, allowlist);
  if (!first.ok) return blocked(403, refusal(first.reason));

  let method = request.method;
  const headers = new Headers(request.headers);
  let body = await bufferBody(request.body);
  for (let hop = 0; ; hop++) {
    const response = await fetcher(
      new Request(url, { method, headers, body: body.replay ?? body.once, redirect: "manual" }),
    );
    body.once = null;
    const location = response.headers.get("location");
    if (request.redirect === "manual" || !REDIRECT_STATUSES.has(response.status) || location === null) {
      return response;
    }
    const next = parseUrl(location, url);
    if (!next) return response;
    const toGet = response.status === 303 ? method !== "HEAD" : response.status <= 302 && method === "POST";
    // a body streamed once cannot be sent again: the code gets the redirect itself
    if (!toGet && body.hasBody && body.replay === null) return response;

    await discard(response);
    if (hop >= maxRedirects) {
      return blocked(
        508,
        `egress stopped after ${maxRedirects} redirects (the last one from ${url.host} to ${next.host}): a redirect loop?`,
      );
    }
    const decision = egressDecision(next, allowlist);
    if (!decision.ok) return blocked(403, `${refusal(decision.reason)}; redirected there by ${url.host}`);

    if (toGet) {
      method = "GET";
      body = { hasBody: false, replay: null, once: null };
      for (const name of BODY_HEADERS) headers.delete(name);
    }
    // once dropped they stay dropped, even if a later hop comes back to the first origin
    if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
    url = next;
  }
}

function blocked(status: number, reason: string): Response {
  return Response.json({ error: reason }, { status, headers: { "X-Egress-Blocked": "1" } });
}

function parseUrl(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // nothing more to do with a body nobody reads
  }
}

interface Body {
  hasBody: boolean;
  /** the whole body, when it fits in MAX_REPLAY_BYTES */
  replay: Uint8Array | null;
  /** otherwise the body as a stream, good for one hop only */
  once: ReadableStream<Uint8Array> | null;
}

/** Reads up to MAX_REPLAY_BYTES; a longer body goes on as a stream of what was read and the rest. */
async function bufferBody(stream: ReadableStream<Uint8Array> | null): Promise<Body> {
  if (!stream) return { hasBody: false, replay: null, once: null };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { hasBody: true, replay: concatBytes(chunks, size), once: null };
    chunks.push(value);
    size += value.byteLength;
    if (size > MAX_REPLAY_BYTES) break;
  }
  const once = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      chunks.length = 0;
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { hasBody: true, replay: null, once };
}
