import { DurableObject } from "cloudflare:workers";

export interface TakeResult {
  allowed: boolean;
  limit: number;
  /** whole tokens left after this take */
  remaining: number;
  /** seconds until the bucket is full again */
  resetSeconds: number;
  /** when refused: seconds until the tokens asked for are back */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

interface Lease {
  id: string;
  expiresAt: number;
}

/**
 * Rate limiting state for one API key (token bucket) or one team (concurrent-execution leases).
 * A Durable Object handles one call at a time, so counts are exact under concurrent requests.
 * Storage keys: docs/storage-schema.md.
 */
export class RateLimiter extends DurableObject {
  /**
   * Takes `count` tokens (one per JSON-RPC message of a batch) from a bucket of `perMinute` tokens
   * refilled continuously: all of them or, when fewer are left, none.
   */
  async take(perMinute: number, count = 1): Promise<TakeResult> {
    if (!Number.isSafeInteger(count) || count < 1)
      throw new RangeError(`count must be a positive integer, got ${count}`);
    const now = Date.now();
    const rate = perMinute / 60_000;
    const stored = await this.ctx.storage.get<Bucket>("bucket");
    const tokens = Math.min(
      perMinute,
      (stored?.tokens ?? perMinute) + (stored ? (now - stored.at) * rate : 0),
    );
    const allowed = tokens >= count;
    const left = allowed ? tokens - count : tokens;
    await this.ctx.storage.put("bucket", { tokens: left, at: now });
    // More than the bucket holds can never be taken; the wait then is for a full bucket.
    const wanted = Math.min(count, perMinute);
    return {
      allowed,
      limit: perMinute,
      remaining: Math.floor(left),
      resetSeconds: Math.ceil((perMinute - left) / rate / 1000),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((wanted - left) / rate / 1000)),
    };
  }

  /** A lease for one of `max` concurrent executions, or null when all are taken. */
  async acquire(max: number, ttlMs: number): Promise<string | null> {
    const now = Date.now();
    const live = ((await this.ctx.storage.get<Lease[]>("leases")) ?? []).filter((l) => l.expiresAt > now);
    if (live.length >= max) {
      await this.ctx.storage.put("leases", live);
      return null;
    }
    const id = crypto.randomUUID();
    live.push({ id, expiresAt: now + ttlMs });
    await this.ctx.storage.put("leases", live);
    return id;
  }

  async release(id: string): Promise<void> {
    const leases = (await this.ctx.storage.get<Lease[]>("leases")) ?? [];
    await this.ctx.storage.put(
      "leases",
      leases.filter((l) => l.id !== id),
    );
  }
}
