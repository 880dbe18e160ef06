import type { UpstreamTool } from "../../../shared/contract/tools";
import { type Span, traced } from "../tracing/trace";
import type { CacheEntry } from "./cache";
import { withUpstream } from "./client";
import type { UpstreamServer } from "./config";
import { admitTool, type LeftOutTool, takeToolLists } from "./tool-list";

const MAX_PAGES = 50;

/**
 * The upstream's whole tool list (following `nextCursor`), bounded by `timeoutMs` overall. Each tool
 * is admitted on its own (tool-list.ts): one that is malformed or nested too deep is left out and
 * named, and the server's other tools are listed.
 */
export async function fetchTools(
  server: UpstreamServer,
  timeoutMs: number,
  span?: Span,
): Promise<CacheEntry> {
  const listing = traced(
    span,
    `tools/list ${server.name}`,
    { "mcp.method.name": "tools/list", "gateway.server": server.name },
    (listed) =>
      withUpstream(
        server,
        timeoutMs,
        async (client) => {
          const tools: UpstreamTool[] = [];
          const leftOut: LeftOutTool[] = [];
          const taken = takeToolLists(client);
          let cursor: string | undefined;
          let shared = true;
          for (let page = 0; page < MAX_PAGES; page++) {
            // One page per request, as the server pages: the SDK's listTools() would walk all pages
            // itself, and answers [] on an idle upstream session reused (whose capabilities it never saw).
            const res = await client.request(
              { method: "tools/list", params: cursor ? { cursor } : {} },
              { timeout: timeoutMs },
            );
            for (const raw of taken()) {
              const admitted = admitTool(raw, tools.length + leftOut.length);
              if ("tool" in admitted) tools.push(admitted.tool);
              else leftOut.push(admitted.leftOut);
            }
            shared &&= (res as { cacheScope?: unknown }).cacheScope === "public";
            cursor = res.nextCursor;
            if (!cursor) break;
          }
          const info = client.getServerVersion();
          return {
            fetchedAt: Date.now(),
            tools,
            ...(leftOut.length ? { leftOut } : {}),
            ...(info ? { server: { name: info.name, version: info.version } } : {}),
            ...(shared ? { public: true } : {}),
          };
        },
        listed,
      ),
  );
  return withDeadline(listing, timeoutMs, `${server.name}: tools/list did not finish within ${timeoutMs} ms`);
}

export function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export function describeFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}
