export { count, legacyUpstream, modernUpstream } from "../../scripts/lib/era-upstreams.mjs";

/** `fetch` as a Fetcher (a service binding), for UpstreamServer.service in workerd tests. */
export function asFetcher(fetch: (request: Request) => Promise<Response>): Fetcher {
  return {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(new Request(input, init)),
  } as unknown as Fetcher;
}
