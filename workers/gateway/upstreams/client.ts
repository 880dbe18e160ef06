import {
  Client,
  type FetchLike,
  LATEST_PROTOCOL_VERSION,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import type { Span } from "../tracing/trace";
import { upstreamFetch } from "../tracing/upstream-fetch";
import { VERSION } from "../version";
import type { UpstreamServer } from "./config";
import type { UserUpstream } from "./credentials";
import {
  type ConnectPlan,
  type Era,
  EraMemory,
  eraAfterConnect,
  httpStatus,
  isFallbackStatus,
  isRefused,
  isSessionGone,
  mayBeStaleEra,
  planConnect,
} from "./eras";

interface Remembered {
  sessionId: string;
  protocolVersion: string;
}

/**
 * Per-isolate state: idle upstream sessions of legacy (2025-era, sessionful) upstreams this isolate
 * opened, by server + config. Only ids are kept (I/O objects may not cross requests in Workers): the
 * next call builds a transport with the id and skips initialize. An upstream session is lent to one
 * call at a time: each new client numbers its JSON-RPC requests from 0, so two concurrent clients on
 * one upstream session would collide on request ids. A 2026-07-28 upstream has no sessions, so
 * nothing of it is kept.
 */
const idle = new Map<string, Remembered[]>();
const MAX_IDLE_PER_SERVER = 8;
/** Per-isolate state: which era each server speaks (2026 with its discover result, 2025, legacy SSE). */
const eras = new EraMemory();

/** How requests reach the server: its service binding or the network; traced under `span` when given. */
function fetcherFor(server: UpstreamServer, span: Span | undefined): FetchLike {
  const { service } = server;
  const send: FetchLike = service
    ? (url, init) => service.fetch(String(url), init)
    : (url, init) => fetch(url, init);
  return span ? upstreamFetch(send, span) : send;
}

function streamable(
  server: UpstreamServer,
  span: Span | undefined,
  session?: Remembered,
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: server.headers },
    fetch: fetcherFor(server, span),
    ...(authOf(server) ? { authProvider: authOf(server) } : {}),
    ...(session ? { sessionId: session.sessionId, protocolVersion: session.protocolVersion } : {}),
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1000,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1,
    },
  });
}

function sse(server: UpstreamServer, span: Span | undefined): SSEClientTransport {
  const fetcher = fetcherFor(server, span);
  return new SSEClientTransport(new URL(server.url), {
    requestInit: { headers: server.headers },
    eventSourceInit: {
      fetch: (url, init) =>
        fetcher(url, {
          ...init,
          headers: { ...server.headers, ...(init?.headers as Record<string, string>) },
        }),
    },
    fetch: fetcher,
    ...(authOf(server) ? { authProvider: authOf(server) } : {}),
  });
}

/** The user's OAuth provider of a per-user server's view (upstreams/credentials.ts). */
const authOf = (server: UpstreamServer | UserUpstream) =>
  "authProvider" in server ? server.authProvider : undefined;

/**
 * A client that probes with `server/discover` and speaks 2026-07-28 to a server that answers it,
 * else falls back to `initialize` (2025-11-25 and older) on the same connection.
 */
function newClient(): Client {
  return new Client(
    { name: "code-mcp-gateway", version: VERSION },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator(), versionNegotiation: { mode: "auto" } },
  );
}

/** Idle sessions and eras per server as configured, and per user for a per-user server's view. */
const key = (server: UpstreamServer | UserUpstream) =>
  `${server.name}:${server.configHash}${"userScope" in server ? `:${server.userScope}` : ""}`;

/** One call's connection to an upstream. */
interface Connection {
  client: Client;
  /** the legacy upstream session this call holds, kept idle after it */
  session?: Remembered;
  /** the upstream session was an idle one (so the upstream may have forgotten it) */
  reused: boolean;
}

/** Connects as `plan` says and records the era the connection established. */
async function open(
  server: UpstreamServer,
  plan: ConnectPlan,
  timeoutMs: number,
  span: Span | undefined,
): Promise<Connection> {
  const id = key(server);
  if (plan.via === "sse") {
    const client = newClient();
    // HTTP+SSE is a 2024-11-05 transport: nothing there speaks 2026, so no probe.
    await client.connect(sse(server, span), { timeout: timeoutMs, prior: { kind: "legacy" } });
    if (server.transport === "auto" && !plan.remembered) eras.set(id, { kind: "legacy-sse" });
    return { client, reused: false };
  }
  const kept = plan.reuseIdle ? idle.get(id)?.pop() : undefined;
  if (kept) {
    const client = newClient();
    // With a session id the client skips initialize (and the probe): no round trip here.
    await client.connect(streamable(server, span, kept), { timeout: timeoutMs, prior: { kind: "legacy" } });
    return { client, session: kept, reused: true };
  }
  const transport = streamable(server, span);
  const client = newClient();
  try {
    await client.connect(transport, { timeout: timeoutMs, ...(plan.prior ? { prior: plan.prior } : {}) });
  } catch (err) {
    // Streamable HTTP refused (the probe and initialize both 4xx): the server may speak only SSE.
    if (server.transport !== "auto" || plan.prior || !isFallbackStatus(httpStatus(err))) throw err;
    return open(server, { via: "sse", remembered: false }, timeoutMs, span);
  }
  const era = client.getProtocolEra();
  // Only a probe teaches anything: a verdict used as `prior` keeps its age, so it is re-checked.
  const learned = plan.prior ? undefined : eraAfterConnect("streamable", era, client.getDiscoverResult());
  if (learned) eras.set(id, learned);
  if (era !== "legacy" || !transport.sessionId) return { client, reused: false };
  const protocolVersion = client.getNegotiatedProtocolVersion() ?? LATEST_PROTOCOL_VERSION;
  return { client, session: { sessionId: transport.sessionId, protocolVersion }, reused: false };
}

function keepIdle(server: UpstreamServer, session: Remembered): void {
  const sessions = idle.get(key(server)) ?? [];
  if (sessions.length < MAX_IDLE_PER_SERVER) sessions.push(session);
  idle.set(key(server), sessions);
}

/** Runs `work` on the connection and closes it after; a legacy upstream session is kept idle. */
async function finish<T>(
  server: UpstreamServer,
  connection: Connection,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  try {
    const result = await work(connection.client);
    if (connection.session) keepIdle(server, connection.session);
    return result;
  } finally {
    await connection.client.close().catch(() => {});
  }
}

/**
 * Runs `work` with a connected client and closes it after. A 2026-07-28 upstream is reached with
 * no handshake once its era is known (the kept discover result); a 2025-era one lends an idle
 * upstream session when there is one, else initializes. Retried once, when nothing reached the tool:
 * - a remembered era whose connect fails (e.g. `initialize` refused) is forgotten and found afresh;
 * - an idle upstream session the upstream refuses at the HTTP level (404: it forgot it) drops the
 *   server's other idle ones;
 * - a remembered 2026 era whose request is refused is re-probed, and the work repeated only if the
 *   server now speaks another era (a 2026 server that refused a call keeps its answer).
 */
export async function withUpstream<T>(
  server: UpstreamServer,
  timeoutMs: number,
  work: (client: Client) => Promise<T>,
  /** the call's span: each HTTP request is a client span under it and carries `traceparent` */
  span?: Span,
): Promise<T> {
  const id = key(server);
  const plan = planConnect(server.transport, eras.get(id));
  let connection: Connection;
  try {
    connection = await open(server, plan, timeoutMs, span);
  } catch (err) {
    if (!plan.remembered || !mayBeStaleEra(err)) throw err;
    eras.forget(id);
    return finish(
      server,
      await open(server, planConnect(server.transport, undefined), timeoutMs, span),
      work,
    );
  }
  try {
    return await finish(server, connection, work);
  } catch (err) {
    if (connection.reused && isRefused(err)) {
      // 404: the upstream restarted, its other idle upstream sessions are gone too; another 4xx: it may
      // no longer speak 2025 at all.
      idle.delete(id);
      if (!isSessionGone(err)) eras.forget(id);
      return finish(
        server,
        await open(server, planConnect(server.transport, eras.get(id)), timeoutMs, span),
        work,
      );
    }
    if (plan.via !== "streamable" || plan.prior?.kind !== "modern" || !mayBeStaleEra(err)) throw err;
    eras.forget(id);
    const fresh = await open(server, planConnect(server.transport, undefined), timeoutMs, span).catch(
      () => undefined,
    );
    if (!fresh) throw err;
    if (fresh.client.getProtocolEra() === "modern") {
      await fresh.client.close().catch(() => {});
      throw err;
    }
    return finish(server, fresh, work);
  }
}

/** The era this isolate remembers for a server (tests, diagnostics). */
export function knownEra(server: UpstreamServer): Era | undefined {
  return eras.get(key(server));
}

/** Idle legacy upstream sessions kept for a server (tests, diagnostics). */
export function idleSessions(server: UpstreamServer): number {
  return idle.get(key(server))?.length ?? 0;
}

export function forgetSessions(): void {
  idle.clear();
  eras.clear();
}
