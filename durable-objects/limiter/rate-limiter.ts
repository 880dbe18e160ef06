import { DurableObject } from "cloudflare:workers";
import { log } from "../../shared/log";

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

/** A take, and when one was asked for and the take was allowed, the lease: its id, or null when all are held. */
export interface Admission extends TakeResult {
  lease?: string | null;
}

interface Bucket {
  tokens: number;
  at: number;
}

interface Lease {
  id: string;
  expiresAt: number;
}

const LEASES = "leases";

/**
 * Rate limiting state of one team: a token bucket per API key of the team and the team's leases for
 * running executions. Every method runs without an await between its read and its write, so calls
 * are applied one at a time and counts are exact under concurrent requests. Writes are answered
 * before storage confirms them (`allowUnconfirmed`): the object's own reads see them at once, and
 * only a crash of its machine in the few ms before they are durable can forget them (the tokens
 * and leases of those calls come back). Storage keys: docs/storage-schema.md.
 */
export class RateLimiter extends DurableObject {
  /**
   * One call per request: returns the `released` leases of executions that ended (the gateway sends
   * them with its next call, limits/releases.ts), takes `count` tokens from the key's bucket (all or
   * none) and, when the take is allowed and `lease` is given, a lease for one of `lease.max`
   * concurrent executions.
   */
  admit(
    keyId: string,
    perMinute: number,
    count: number,
    lease?: { max: number; ttlMs: number },
    released: string[] = [],
  ): Admission {
    if (released.length > 0) this.release(released);
    const taken = this.take(perMinute, count, `bucket:${keyId}`);
    if (!taken.allowed || lease === undefined) return taken;
    return { ...taken, lease: this.acquire(lease.max, lease.ttlMs) };
  }

  /**
   * Takes `count` tokens (one per JSON-RPC message of a batch) from a bucket of `perMinute` tokens
   * refilled continuously: all of them or, when fewer are left, none.
   */
  take(perMinute: number, count = 1, key = "bucket"): TakeResult {
    if (!Number.isSafeInteger(count) || count < 1)
      throw new RangeError(`count must be a positive integer, got ${count}`);
    const now = Date.now();
    const rate = perMinute / 60_000;
    const stored = this.ctx.storage.kv.get<Bucket>(key);
    const tokens = Math.min(
      perMinute,
      (stored?.tokens ?? perMinute) + (stored ? (now - stored.at) * rate : 0),
    );
    const allowed = tokens >= count;
    const left = allowed ? tokens - count : tokens;
    this.save(key, { tokens: left, at: now });
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
  acquire(max: number, ttlMs: number): string | null {
    const now = Date.now();
    const live = (this.ctx.storage.kv.get<Lease[]>(LEASES) ?? []).filter((l) => l.expiresAt > now);
    if (live.length >= max) {
      this.save(LEASES, live);
      return null;
    }
    const id = crypto.randomUUID();
    live.push({ id, expiresAt: now + ttlMs });
    this.save(LEASES, live);
    return id;
  }

  /** Returns leases (unknown or already returned ids are ignored). */
  release(ids: string[]): void {
    const gone = new Set(ids);
    const leases = this.ctx.storage.kv.get<Lease[]>(LEASES) ?? [];
    this.save(
      LEASES,
      leases.filter((l) => !gone.has(l.id)),
    );
  }

  /**
   * Writes without holding the answer until storage confirms the write, which waits for a disk sync
   * locally and for replicas in production: a DO call costs that on every request otherwise.
   */
  private save(key: string, value: unknown): void {
    this.ctx.storage.put(key, value, { allowUnconfirmed: true }).catch((err: unknown) => {
      log("error", "rate limiter write failed", {
        key,
        error: err instanceof Error ? err.message : String(err),
      });
    });
  }
}
