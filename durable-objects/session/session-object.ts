import { DurableObject } from "cloudflare:workers";
import {
  type PiiItem,
  type SessionAnswer,
  SessionCall,
  type SessionQuota,
} from "../../shared/contract/session";
import { fail, sessionNotFound } from "./answer";
import { dispatch } from "./dispatch";
import type { SessionRecord } from "./record";
import { createSchema } from "./schema";
import { restore, tokenize } from "./vault";

const RECORD_KEY = "session";
const APPROVED_KEY = "approved-tools";
/** Tools a session may remember as approved (`remember: "session"`). */
const MAX_APPROVED_TOOLS = 200;
/** lastSeenAt is rewritten at most this often, so busy sessions do not write on every request. */
const TOUCH_EVERY_MS = 60_000;
/** A cancellation is kept this long for an execution that has not started listening yet. */
const CANCEL_KEPT_MS = 60_000;
/** Cancellations one session keeps at once (a client cannot grow the map without end). */
const MAX_CANCELS = 1_000;

/**
 * One object per session (named by the session id). Holds the session record so that a session
 * works whichever gateway isolate a request lands in, and the session's state, workspace files and
 * PII vault (SQL tables, made on first use); all of it ends on DELETE or after SESSION_TTL_SECONDS
 * idle (alarm). Its execution history is not here: it is the session's entries in the team's
 * AuditLog. Storage: see docs/storage-schema.md.
 */
export class SessionObject extends DurableObject {
  /** deleteAll() drops the SQL tables too, so every wipe clears this. */
  private schemaReady = false;
  /** notifications/cancelled by the client's request id (JSON text), and when each came */
  readonly #cancelled = new Map<string, number>();
  /** running executions listening for their cancellation, by request id */
  readonly #listening = new Map<string, Set<() => void>>();

  async open(record: SessionRecord): Promise<void> {
    await this.ctx.storage.put(RECORD_KEY, record);
    await this.ctx.storage.setAlarm(record.lastSeenAt + record.ttlSeconds * 1000);
  }

  /** The live record (and marks it used), or null for an unknown, ended or expired session. */
  async touch(): Promise<SessionRecord | null> {
    const record = await this.ctx.storage.get<SessionRecord>(RECORD_KEY);
    if (!record) return null;
    const now = Date.now();
    if (isExpired(record, now)) {
      await this.wipe();
      return null;
    }
    if (now - record.lastSeenAt > TOUCH_EVERY_MS) {
      const updated = { ...record, lastSeenAt: now };
      await this.ctx.storage.put(RECORD_KEY, updated);
      await this.ctx.storage.setAlarm(now + record.ttlSeconds * 1000);
      return updated;
    }
    return record;
  }

  /** Ends the session and removes its state; false when there was none. */
  async close(): Promise<boolean> {
    const existed = (await this.ctx.storage.get(RECORD_KEY)) !== undefined;
    await this.ctx.storage.deleteAlarm();
    await this.wipe();
    return existed;
  }

  override async alarm(): Promise<void> {
    const record = await this.ctx.storage.get<SessionRecord>(RECORD_KEY);
    if (!record) return;
    const expiresAt = record.lastSeenAt + record.ttlSeconds * 1000;
    if (Date.now() >= expiresAt) await this.wipe();
    else await this.ctx.storage.setAlarm(expiresAt);
  }

  /** One state / workspace / session call of `team`'s session; expected failures are answers, not throws. */
  async call(team: string, call: SessionCall, quota: SessionQuota): Promise<SessionAnswer> {
    return this.withLive(team, sessionNotFound(), (record) => {
      const parsed = SessionCall.safeParse(call);
      if (!parsed.success) return fail("TypeError", describeIssue(parsed.error));
      return dispatch(this.ctx.storage, record, parsed.data, quota);
    });
  }

  /** The token of each item (`[EMAIL_1]`, or `[EMAIL]` once the vault is full); null when the session is gone. */
  async tokenize(team: string, items: PiiItem[]): Promise<string[] | null> {
    return this.withLive(team, null, () => tokenize(this.ctx.storage, items));
  }

  /** The original value of each token (null when unknown); null when the session is gone. */
  async restore(team: string, tokens: string[]): Promise<Array<string | null> | null> {
    return this.withLive(team, null, () => restore(this.ctx.storage.sql, tokens));
  }

  /** Records the level logging/setLevel asked for; false when the session is gone. */
  async setLogLevel(team: string, level: NonNullable<SessionRecord["logLevel"]>): Promise<boolean> {
    return this.withLive(team, false, (record) => {
      this.ctx.storage.kv.put(RECORD_KEY, { ...record, logLevel: level });
      return true;
    });
  }

  /**
   * The client cancelled its request `requestKey` (the JSON text of its id): an execution running
   * for it, in whichever isolate, hears it now; one that starts listening within CANCEL_KEPT_MS does too.
   */
  async cancelRequest(team: string, requestKey: string): Promise<void> {
    const record = this.ctx.storage.kv.get<SessionRecord>(RECORD_KEY);
    if (!record || record.team !== team || requestKey.length > 200) return;
    const now = Date.now();
    for (const [key, at] of this.#cancelled) if (now - at > CANCEL_KEPT_MS) this.#cancelled.delete(key);
    if (this.#cancelled.size < MAX_CANCELS) this.#cancelled.set(requestKey, now);
    for (const hear of this.#listening.get(requestKey) ?? []) hear();
  }

  /**
   * Resolves true when the request `requestKey` is cancelled (by a cancellation that came after
   * `since`), false after `maxMs` without one.
   */
  async cancelled(team: string, requestKey: string, since: number, maxMs: number): Promise<boolean> {
    const record = this.ctx.storage.kv.get<SessionRecord>(RECORD_KEY);
    if (!record || record.team !== team) return false;
    const at = this.#cancelled.get(requestKey);
    if (at !== undefined && at >= since) return true;
    return new Promise((resolve) => {
      const listeners = this.#listening.get(requestKey) ?? new Set();
      const done = (value: boolean) => {
        clearTimeout(timer);
        listeners.delete(hear);
        if (listeners.size === 0) this.#listening.delete(requestKey);
        resolve(value);
      };
      const hear = () => done(true);
      const timer = setTimeout(() => done(false), Math.max(0, Math.min(maxMs, 15 * 60_000)));
      listeners.add(hear);
      this.#listening.set(requestKey, listeners);
    });
  }

  /** Tools a person approved for the rest of this session; null when the session is gone. */
  async approvedTools(team: string): Promise<string[] | null> {
    return this.withLive(team, null, () => this.ctx.storage.kv.get<string[]>(APPROVED_KEY) ?? []);
  }

  /** Remembers `tool` as approved for the session (up to MAX_APPROVED_TOOLS); false when the session is gone. */
  async rememberApproval(team: string, tool: string): Promise<boolean> {
    return this.withLive(team, false, () => {
      const tools = this.ctx.storage.kv.get<string[]>(APPROVED_KEY) ?? [];
      if (!tools.includes(tool) && tools.length < MAX_APPROVED_TOOLS) {
        this.ctx.storage.kv.put(APPROVED_KEY, [...tools, tool.slice(0, 300)]);
      }
      return true;
    });
  }

  /**
   * Runs `work` for `team`'s live session right after the check, with no await in between, so a
   * close() cannot slip in and a call on a gone session never creates tables.
   */
  private async withLive<T>(team: string, missing: T, work: (record: SessionRecord) => T): Promise<T> {
    const record = this.ctx.storage.kv.get<SessionRecord>(RECORD_KEY);
    if (!record) return missing;
    if (isExpired(record, Date.now())) {
      await this.wipe();
      return missing;
    }
    if (record.team !== team) return missing;
    if (!this.schemaReady) {
      createSchema(this.ctx.storage.sql);
      this.schemaReady = true;
    }
    return work(record);
  }

  private async wipe(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.schemaReady = false;
  }
}

function isExpired(record: SessionRecord, now: number): boolean {
  return now - record.lastSeenAt > record.ttlSeconds * 1000;
}

function describeIssue(error: { issues: Array<{ path: PropertyKey[]; message: string }> }): string {
  const issue = error.issues[0];
  if (!issue) return "invalid session call";
  return issue.path.length ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message;
}
