import {
  type DiscoverResult,
  type PriorDiscovery,
  ProtocolError,
  SdkHttpError,
  SseError,
} from "@modelcontextprotocol/client";

/**
 * Which protocol era an upstream speaks, as this isolate last found it:
 * - modern: MCP 2026-07-28 (answered `server/discover`); stateless, the kept discover result lets
 *   the next call connect with no round trip at all;
 * - legacy: 2025-era streamable HTTP (`initialize`, maybe a session);
 * - legacy-sse: 2024-11-05 HTTP+SSE only (streamable HTTP was refused, SSE worked).
 */
export type Era = { kind: "modern"; discover: DiscoverResult } | { kind: "legacy" } | { kind: "legacy-sse" };

/** How many servers an isolate remembers the era of; the least recently learned is forgotten first. */
export const MAX_KNOWN_SERVERS = 256;
/**
 * A verdict is trusted this long, then the next call without an idle upstream session probes again: an
 * upgraded server still answers `initialize`, so a legacy verdict would never correct itself.
 */
export const ERA_TTL_MS = 10 * 60_000;

/** A bounded map from server + config to era, with an age limit on each verdict. */
export class EraMemory {
  private readonly known = new Map<string, { era: Era; at: number }>();

  constructor(
    private readonly max = MAX_KNOWN_SERVERS,
    private readonly ttlMs = ERA_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): Era | undefined {
    const hit = this.known.get(key);
    if (!hit) return undefined;
    if (this.now() - hit.at > this.ttlMs) {
      this.known.delete(key);
      return undefined;
    }
    return hit.era;
  }

  set(key: string, era: Era): void {
    this.known.delete(key);
    this.known.set(key, { era, at: this.now() });
    while (this.known.size > this.max) {
      const oldest = this.known.keys().next().value;
      if (oldest === undefined) break;
      this.known.delete(oldest);
    }
  }

  forget(key: string): void {
    this.known.delete(key);
  }

  clear(): void {
    this.known.clear();
  }

  get size(): number {
    return this.known.size;
  }
}

/** What one connection attempt does, decided before any I/O. */
export type ConnectPlan =
  /** legacy HTTP+SSE transport, plain `initialize` */
  | { via: "sse"; remembered: boolean }
  /**
   * streamable HTTP. `prior` skips the `server/discover` probe (a modern verdict: no round trip
   * at all; legacy: straight to `initialize`); without it the client probes (`'auto'`).
   * `reuseIdle`: an idle legacy upstream session may be lent instead (legacy or unknown era only).
   */
  | { via: "streamable"; prior?: PriorDiscovery; reuseIdle: boolean; remembered: boolean };

/** The plan for a server configured with `transport`, given what the isolate knows of its era. */
export function planConnect(
  transport: "streamable-http" | "sse" | "auto",
  era: Era | undefined,
): ConnectPlan {
  if (transport === "sse") return { via: "sse", remembered: false };
  if (era?.kind === "legacy-sse" && transport === "auto") return { via: "sse", remembered: true };
  if (era?.kind === "modern") {
    return {
      via: "streamable",
      prior: { kind: "modern", discover: era.discover },
      reuseIdle: false,
      remembered: true,
    };
  }
  if (era?.kind === "legacy") {
    return { via: "streamable", prior: { kind: "legacy" }, reuseIdle: true, remembered: true };
  }
  return { via: "streamable", reuseIdle: true, remembered: false };
}

/** HTTP statuses of a streamable HTTP attempt that mean "try the legacy SSE transport". */
export function isFallbackStatus(status: number | undefined): boolean {
  return status === 400 || status === 404 || status === 405;
}

/** The HTTP status of a transport failure, if it was one. */
export function httpStatus(err: unknown): number | undefined {
  if (err instanceof SdkHttpError) return err.status;
  if (err instanceof SseError) return err.code;
  return undefined;
}

/** The upstream no longer knows the upstream session it was asked to continue. */
export function isSessionGone(err: unknown): boolean {
  return httpStatus(err) === 404;
}

/** The upstream refused the request at the HTTP level (a 4xx other than an auth wall): nothing ran. */
export function isRefused(err: unknown): boolean {
  const status = httpStatus(err);
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/**
 * A failure that may mean a remembered verdict is out of date (the server was replaced by one of
 * another era): a 4xx other than an auth wall, or a JSON-RPC error (a 2025 sessionful server
 * answers a 2026 request, which has no session, with 400 and -32000). The caller re-probes, and
 * repeats the work only if the era did change. Timeouts, aborts, network failures and 5xx say
 * nothing about the era.
 */
export function mayBeStaleEra(err: unknown): boolean {
  return isRefused(err) || err instanceof ProtocolError;
}

/** What the isolate should remember after a connection established `era` over `via`. */
export function eraAfterConnect(
  via: "sse" | "streamable",
  negotiated: "modern" | "legacy" | undefined,
  discover: DiscoverResult | undefined,
): Era | undefined {
  if (via === "sse") return { kind: "legacy-sse" };
  if (negotiated === "modern" && discover) return { kind: "modern", discover };
  if (negotiated === "legacy") return { kind: "legacy" };
  return undefined;
}
