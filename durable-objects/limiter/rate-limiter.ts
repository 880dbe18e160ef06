import { DurableObject } from "cloudflare:workers";

export interface TakeResult {
  allowed: boolean;
  limit: number;
  /** whole tokens left after this request */
  remaining: number;
  /** seconds until the bucket is full again */
  resetSeconds: number;
  /** when refused: seconds until one token is back */
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
  /** Takes one token from a bucket of `perMinute` tokens refilled continuously. */
  async take(perMinute: number): Promise<TakeResult> {
    const now = Date.now();
    const rate = perMinute / 60_000;
    const stored = await this.ctx.storage.get<Bucket>("bucket");
    const tokens = Math.min(
      perMinute,
      (stored?.tokens ?? perMinute) + (stored ? (now - stored.at) * rate : 0),
    );
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    await this.ctx.storage.put("bucket", { tokens: left, at: now });
    return {
      allowed,
      limit: perMinute,
      remaining: Math.floor(left),
      resetSeconds: Math.ceil((perMinute - left) / rate / 1000),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - left) / rate / 1000)),
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
