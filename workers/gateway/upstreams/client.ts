import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { VERSION } from "../version";
import type { UpstreamServer } from "./config";

interface Remembered {
  sessionId: string;
  protocolVersion: string;
}

/**
 * Upstream sessions this isolate opened, by server + config. Only ids are kept (I/O objects may not
 * cross requests in Workers): the next request builds a transport with the id and skips initialize.
 */
const sessions = new Map<string, Remembered>();
/** Servers that answered streamable HTTP with 4xx and spoke legacy SSE instead. */
const legacySse = new Set<string>();

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

function fetcherFor(server: UpstreamServer): FetchLike {
  const { service } = server;
  if (service) return (url, init) => service.fetch(String(url), init);
  return (url, init) => fetch(url, init);
}

function streamable(server: UpstreamServer, sessionId?: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: server.headers },
    fetch: fetcherFor(server),
    ...(sessionId ? { sessionId } : {}),
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1000,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1,
    },
  });
}

function sse(server: UpstreamServer): SSEClientTransport {
  return new SSEClientTransport(new URL(server.url), {
    requestInit: { headers: server.headers },
    eventSourceInit: {
      fetch: (url, init) =>
        fetcherFor(server)(url, {
          ...init,
          headers: { ...server.headers, ...(init?.headers as Record<string, string>) },
        }),
    },
    fetch: fetcherFor(server),
  });
}

function newClient(): Client {
  return new Client(
    { name: "code-mcp-gateway", version: VERSION },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
}

const key = (server: UpstreamServer) => `${server.name}:${server.configHash}`;

async function connect(server: UpstreamServer, timeoutMs: number): Promise<Client> {
  const id = key(server);
  const useSse = server.transport === "sse" || (server.transport === "auto" && legacySse.has(id));
  if (useSse) {
    const client = newClient();
    await client.connect(sse(server), { timeout: timeoutMs });
    return client;
  }
  const remembered = sessions.get(id);
  if (remembered) {
    const transport = streamable(server, remembered.sessionId);
    transport.setProtocolVersion(remembered.protocolVersion);
    const client = newClient();
    await client.connect(transport, { timeout: timeoutMs });
    return client;
  }
  const transport = streamable(server);
  const client = newClient();
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (err) {
    if (server.transport === "auto" && err instanceof StreamableHTTPError && isFallbackStatus(err.code)) {
      const legacy = newClient();
      await legacy.connect(sse(server), { timeout: timeoutMs });
      legacySse.add(id);
      return legacy;
    }
    throw err;
  }
  if (transport.sessionId) {
    sessions.set(id, {
      sessionId: transport.sessionId,
      protocolVersion: transport.protocolVersion ?? LATEST_PROTOCOL_VERSION,
    });
  }
  return client;
}

function isFallbackStatus(code: number | undefined): boolean {
  return code === 404 || code === 405 || code === 400;
}

/**
 * Runs `work` with a connected client and closes it after. A remembered session the upstream no
 * longer knows (404) is forgotten and the work retried once on a fresh one.
 */
export async function withUpstream<T>(
  server: UpstreamServer,
  timeoutMs: number,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const hadSession = sessions.has(key(server));
  let client = await connect(server, timeoutMs);
  try {
    return await work(client);
  } catch (err) {
    if (!hadSession || !(err instanceof StreamableHTTPError) || err.code !== 404) throw err;
    sessions.delete(key(server));
    await client.close().catch(() => {});
    client = await connect(server, timeoutMs);
    return await work(client);
  } finally {
    await client.close().catch(() => {});
  }
}

export function forgetSessions(): void {
  sessions.clear();
  legacySse.clear();
}
