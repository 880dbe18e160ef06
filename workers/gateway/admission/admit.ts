import type { TakeResult } from "../../../durable-objects/limiter/rate-limiter";
import type { Config } from "../config";
import type { GatewayEnv } from "../env";
import { GatewayError } from "../errors";
import { type PhaseClock, timed } from "../timing/clock";
import { admitInLine } from "./admission-line";
import { giveBack, takeForAdmit } from "./leases";
import { leaseTerms } from "./limiter";

/** What admission granted a request: the RateLimit-* headers of its answer, and its lease if it asked. */
export interface AdmissionResult {
  readonly headers: Readonly<Record<string, string>>;
  /** asked only for a lone execution: a lease id, or null when every lease of the team was held */
  readonly lease?: string | null;
}

export interface AdmitRequest {
  env: GatewayEnv;
  config: Config;
  team: string;
  keyId: string;
  /** credits: one per JSON-RPC message on POST /mcp, one otherwise */
  count: number;
  /** whether the request is one execution (its lease is taken with its credits) */
  execution: boolean;
  clock?: PhaseClock | undefined;
  waitUntil: (promise: Promise<unknown>) => void;
}

/** JSON-RPC messages in a POST /mcp body: a batch is as many calls as it holds. */
export function messageCount(body: unknown): number {
  return Array.isArray(body) ? Math.max(1, body.length) : 1;
}

/**
 * Credits from the API key's bucket (RATE_LIMIT_PER_MINUTE, or the team's limits.requestsPerMinute),
 * taken all at once or not at all; refused: 429 with Retry-After and RateLimit-* headers. A request
 * that is one execution also gets its concurrency lease in the same Durable Object call; this
 * isolate's ended executions' leases go back with it, before its decision, and its quiet audit
 * entries are appended by it (leases.ts, audit/record.ts). Admits of one team that meet in this
 * isolate share calls (admission-line.ts).
 */
export async function admit(ask: AdmitRequest): Promise<AdmissionResult> {
  const { env, team, count, waitUntil } = ask;
  const carried = takeForAdmit(env, team);
  const result = await timed(
    ask.clock,
    "admit",
    () =>
      admitInLine(
        env,
        team,
        {
          keyId: ask.keyId,
          perMinute: ask.config.rateLimit.perMinute,
          count,
          lease: ask.execution ? leaseTerms(ask.config) : undefined,
          released: carried.released,
          audit: carried.audit,
        },
        waitUntil,
      ).catch((err) => {
        giveBack(env, team, carried, waitUntil);
        throw err;
      }),
    false,
  );
  const headers = {
    "RateLimit-Limit": String(result.limit),
    "RateLimit-Remaining": String(result.remaining),
    "RateLimit-Reset": String(result.resetSeconds),
    "RateLimit-Policy": `${result.limit};w=60`,
  };
  if (!result.allowed) {
    throw new GatewayError("rate_limited", refusal(result, count), {
      ...headers,
      "Retry-After": String(result.retryAfterSeconds),
    });
  }
  return result.lease === undefined ? { headers } : { headers, lease: result.lease };
}

function refusal(result: TakeResult, count: number): string {
  if (count > result.limit) {
    return `Too many requests: this batch of ${count} messages counts as ${count} requests (one per message), more than this key's ${result.limit} per minute; send smaller batches`;
  }
  const batch =
    count > 1 ? `this batch of ${count} messages counts as ${count} requests (one per message), ` : "";
  return `Too many requests: ${batch}${result.limit} per minute for this key; retry in ${result.retryAfterSeconds} s`;
}
