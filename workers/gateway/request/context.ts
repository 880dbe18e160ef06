import type { SessionRecord } from "../../../durable-objects/session/record";
import type { ExecuteInput } from "../../../shared/contract/execute";
import type { Config } from "../config";
import type { GatewayEnv } from "../env";
import type { TeamRecord } from "../teams/schema";
import type { PhaseClock } from "../timing/clock";
import type { Trace } from "../tracing/trace";
import type { MessageFacts } from "./messages";

/** The request's JSON body as read once (POST /mcp, POST /v1/execute): the value, or why it is unusable. */
export type JsonBody = { ok: true; value: unknown } | { ok: false; error: Error };

/**
 * A request that is exactly one `execute` call (a lone MCP `tools/call` the gateway answers itself, or
 * a valid POST /v1/execute body), with the concurrency lease admission took for it: a lease id, or
 * null when every lease of the team was held. The execute operation owns that lease.
 */
export interface LoneExecution {
  readonly input: ExecuteInput;
  /** the JSON-RPC id to answer with (MCP only) */
  readonly rpcId?: string | number;
  readonly lease: string | null;
}

/**
 * Everything routes and operations know about the request, built once when the request has been
 * authenticated and admitted (context/middleware.ts) and never changed after.
 */
export interface RequestContext {
  readonly env: GatewayEnv;
  /** the deployment's configuration with the team's overrides (limits, pii) */
  readonly config: Config;
  readonly requestId: string;
  /** the trace this request is part of (W3C trace id): its own when traces are exported, else the caller's */
  readonly traceId?: string;
  /** the gateway's origin as the client reached it: where links it gives out point (connect, approval pages) */
  readonly origin: string;
  /** the API key's team: whose upstreams, caches, sessions, skills and audit log these are */
  readonly team: string;
  /** the team's stored record (servers, allow/deny, egress, limits), read once; null when none */
  readonly teamRecord: TeamRecord | null;
  /** the API key's id (`dev` for DEV_API_KEY) */
  readonly keyId: string;
  /** who the request acts as: the key's `user`, else the key's id (`dev` for DEV_API_KEY); an OAuth grant acts as its key's */
  readonly user: string;
  /** which door the request came in by: MCP callers without a session get one made on first use */
  readonly via: "mcp" | "rest";
  /** the request's JSON body, when its cost depends on it (POST /mcp, POST /v1/execute) */
  readonly body?: JsonBody;
  /**
   * the MCP protocol era of a POST /mcp: `modern` for 2026-07-28 (stateless, no MCP session: an
   * execution's session is its `sessionId`), `legacy` for 2025-11-25 and older
   */
  readonly mcpEra?: "modern" | "legacy";
  /** what the MCP edge decides on in a POST /mcp body, read once (request/messages.ts) */
  readonly messages?: MessageFacts;
  /** the live (2025-era) MCP session a POST /mcp names, checked to be this team's */
  readonly mcpSession?: SessionRecord;
  /** the request as one execution, when it is one */
  readonly loneExecution?: LoneExecution;
  /** phase timings (PHASE_TIMING, operator requests only) */
  readonly clock?: PhaseClock;
  /** the request's (or detached run's) trace, when traces are exported: spans hang under its root */
  readonly trace?: Trace;
  waitUntil(promise: Promise<unknown>): void;
}
