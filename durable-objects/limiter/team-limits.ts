import { DurableObject } from "cloudflare:workers";
import { log } from "../../shared/log";
import type { CarriedAudit } from "../audit/entry";

export interface TakeResult {
  allowed: boolean;
  limit: number;
  /** whole credits left after this take */
  remaining: number;
  /** seconds until the bucket is full again */
  resetSeconds: number;
  /** when refused: seconds until the credits asked for are back */
  retryAfterSeconds: number;
}

/** A take, and when one was asked for and the take was allowed, the lease: its id, or null when all are held. */
export interface Admission extends TakeResult {
  lease?: string | null;
}

/** One request's admit, as `admitMany` takes it. */
export interface AdmitAsk {
  keyId: string;
  perMinute: number;
  count: number;
  lease?: { max: number; ttlMs: number };
  released: string[];
  audit?: CarriedAudit | undefined;
}

/** A key's credits (one per request or JSON-RPC message) and when they were counted. */
interface Bucket {
  credits: number;
  at: number;
}

interface Lease {
  id: string;
  expiresAt: number;
}

const LEASES = "leases";

/**
 * Changes reach storage this long after the first change since the last write, all of the window's
 * changes in one put: a disk sync (locally) or a replica round (in production) per request blocked
 * more than the call itself costs (docs/bench-log.md). Longer than the gateway keeps an ended
 * execution's lease and audit entries for the team's next admit (1 s, workers/gateway/audit/record.ts),
 * so that the call that brings them, which writes the changes with its entries (`saveHeld`), finds
 * the write still due and no timer of its own writes them before it.
 */
export const WRITE_BEHIND_MS = 1_200;

/** Keys per storage put (the key-value API's limit). */
const PUT_MAX_KEYS = 128;

/**
 * Rate limiting state of one team: a bucket of credits per API key of the team and the team's leases for
 * running executions, kept by the team's `AuditLog` (or, without an AUDIT binding, its `RateLimiter`;
 * workers/gateway/admission/limiter.ts), both of this class. The object's memory is the authority: every method reads and changes it
 * without an await between, so calls are applied one at a time and counts are exact under
 * concurrent requests. Storage is its copy for the next instance (after eviction, a deploy or a
 * crash), written WRITE_BEHIND_MS after a change without waiting for confirmation: an instance that
 * ends inside that window forgets the window's changes (its credits come back, its new leases are
 * forgotten, its returned leases are held until they expire). Storage keys: docs/storage-schema.md.
 */
export class TeamLimits extends DurableObject {
  /** Every key this instance has read or written, with its current value (undefined: none). */
  readonly #held = new Map<string, unknown>();
  readonly #unsaved = new Set<string>();
  /** the write-behind's timer, while one is due */
  #due: ReturnType<typeof setTimeout> | undefined;

  /**
   * One call per request: returns the `released` leases of executions that ended first (the gateway
   * sends them with its next call, workers/gateway/audit/record.ts), so that they never refuse this
   * one; takes `count` credits from the key's bucket (all or none) and, when the take is allowed and
   * `lease` is given, a lease for one of `lease.max` concurrent executions; and takes the `audit`
   * entries the gateway carried, to write them with the limits (AuditLog).
   */
  admit(
    keyId: string,
    perMinute: number,
    count: number,
    lease?: { max: number; ttlMs: number },
    released: string[] = [],
    audit?: CarriedAudit,
  ): Admission {
    if (released.length > 0) this.release(released);
    const taken = this.take(perMinute, count, `bucket:${keyId}`);
    if (audit !== undefined) this.appendCarried(audit);
    if (!taken.allowed || lease === undefined) return taken;
    return { ...taken, lease: this.acquire(lease.max, lease.ttlMs) };
  }

  /** Several admits in one call, each decided on its own, in order (workers/gateway/admission/admission-line.ts). */
  admitMany(asks: AdmitAsk[]): Admission[] {
    return asks.map((a) => this.admit(a.keyId, a.perMinute, a.count, a.lease, a.released, a.audit));
  }

  /**
   * Takes audit entries an admit carried: the team's `AuditLog` does; these limits alone (a
   * `RateLimiter`, used only without an AUDIT binding, when the gateway has no entries) cannot.
   */
  protected appendCarried(_audit: CarriedAudit): void {
    throw new TypeError("this limiter keeps no audit log; audit entries go to the team's AuditLog");
  }

  /**
   * Takes `count` credits (one per JSON-RPC message of a batch) from a bucket of `perMinute` credits
   * refilled continuously: all of them or, when fewer are left, none.
   */
  take(perMinute: number, count = 1, key = "bucket"): TakeResult {
    if (!Number.isSafeInteger(count) || count < 1)
      throw new RangeError(`count must be a positive integer, got ${count}`);
    const now = Date.now();
    const rate = perMinute / 60_000;
    const stored = this.read<Bucket>(key);
    const credits = Math.min(
      perMinute,
      (stored?.credits ?? perMinute) + (stored ? (now - stored.at) * rate : 0),
    );
    const allowed = credits >= count;
    const left = allowed ? credits - count : credits;
    this.save(key, { credits: left, at: now });
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

  /** A lease for one of `max` concurrent executions, or null when all are taken; `released` go back first. */
  acquire(max: number, ttlMs: number, released: string[] = []): string | null {
    if (released.length > 0) this.release(released);
    const now = Date.now();
    const live = (this.read<Lease[]>(LEASES) ?? []).filter((l) => l.expiresAt > now);
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
    const leases = this.read<Lease[]>(LEASES) ?? [];
    this.save(
      LEASES,
      leases.filter((l) => !gone.has(l.id)),
    );
  }

  private read<T>(key: string): T | undefined {
    if (!this.#held.has(key)) this.#held.set(key, this.ctx.storage.kv.get<T>(key));
    return this.#held.get(key) as T | undefined;
  }

  private save(key: string, value: unknown): void {
    this.#held.set(key, value);
    this.writeLater();
    this.#unsaved.add(key);
  }

  /** Sets the write-behind's timer, unless one is due. */
  protected writeLater(): void {
    this.#due ??= setTimeout(() => this.writeBehind(), WRITE_BEHIND_MS);
  }

  /**
   * Writes the changes not yet saved now, with the caller's writes (the audit log's append: storage
   * commits the writes of one event together), and cancels the write-behind that was due: one
   * storage write and one timer event of the object fewer.
   */
  protected saveHeld(): void {
    clearTimeout(this.#due);
    this.#due = undefined;
    for (const key of this.#unsaved) this.ctx.storage.kv.put(key, this.#held.get(key));
    this.#unsaved.clear();
  }

  /** The window's changes, in puts that storage confirms later (`allowUnconfirmed`). */
  protected writeBehind(): void {
    this.#due = undefined;
    const keys = [...this.#unsaved];
    this.#unsaved.clear();
    for (let i = 0; i < keys.length; i += PUT_MAX_KEYS) {
      const entries = Object.fromEntries(keys.slice(i, i + PUT_MAX_KEYS).map((k) => [k, this.#held.get(k)]));
      this.ctx.storage.put(entries, { allowUnconfirmed: true }).catch((err: unknown) => {
        log("error", "rate limiter write failed", {
          keys: Object.keys(entries).length,
          error: err instanceof Error ? err.message : String(err),
        });
      });
    }
  }
}
