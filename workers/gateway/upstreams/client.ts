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
 * Idle upstream sessions this isolate opened, by server + config. Only ids are kept (I/O objects may
 * not cross requests in Workers): the next call builds a transport with the id and skips initialize.
 * A session is lent to one call at a time: each new client numbers its JSON-RPC requests from 0, so
 * two concurrent clients on one session would collide on request ids.
 */
const idle = new Map<string, Remembered[]>();
const MAX_IDLE_PER_SERVER = 8;
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

interface Lease {
  client: Client;
  session?: Remembered;
  /** the session came from the idle pool (so the upstream may have forgotten it) */
  reused: boolean;
}

async function connect(server: UpstreamServer, timeoutMs: number): Promise<Lease> {
  const id = key(server);
  const useSse = server.transport === "sse" || (server.transport === "auto" && legacySse.has(id));
  if (useSse) {
    const client = newClient();
    await client.connect(sse(server), { timeout: timeoutMs });
    return { client, reused: false };
  }
  const remembered = idle.get(id)?.pop();
  if (remembered) {
    const transport = streamable(server, remembered.sessionId);
    transport.setProtocolVersion(remembered.protocolVersion);
    const client = newClient();
    await client.connect(transport, { timeout: timeoutMs });
    return { client, session: remembered, reused: true };
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
      return { client: legacy, reused: false };
    }
    throw err;
  }
  if (!transport.sessionId) return { client, reused: false };
  const session = {
    sessionId: transport.sessionId,
    protocolVersion: transport.protocolVersion ?? LATEST_PROTOCOL_VERSION,
  };
  return { client, session, reused: false };
}

function release(server: UpstreamServer, session: Remembered): void {
  const pool = idle.get(key(server)) ?? [];
  if (pool.length < MAX_IDLE_PER_SERVER) pool.push(session);
  idle.set(key(server), pool);
}

function isFallbackStatus(code: number | undefined): boolean {
  return code === 404 || code === 405 || code === 400;
}

/**
 * Runs `work` with a connected client and closes it after; its session goes back to the idle pool.
 * A reused session the upstream no longer knows (404) is dropped and the work retried once on a
 * fresh one.
 */
export async function withUpstream<T>(
  server: UpstreamServer,
  timeoutMs: number,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  let lease = await connect(server, timeoutMs);
  try {
    const result = await work(lease.client);
    if (lease.session) release(server, lease.session);
    return result;
  } catch (err) {
    if (!lease.reused || !(err instanceof StreamableHTTPError) || err.code !== 404) throw err;
    await lease.client.close().catch(() => {});
    lease = await connect(server, timeoutMs);
    const result = await work(lease.client);
    if (lease.session) release(server, lease.session);
    return result;
  } finally {
    await lease.client.close().catch(() => {});
  }
}

export function forgetSessions(): void {
  idle.clear();
  legacySse.clear();
}
