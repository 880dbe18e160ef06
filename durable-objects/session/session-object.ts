import { DurableObject } from "cloudflare:workers";
import type { SessionRecord } from "./record";

const RECORD_KEY = "session";
/** lastSeenAt is rewritten at most this often, so busy sessions do not write on every request. */
const TOUCH_EVERY_MS = 60_000;

/**
 * One object per MCP session (named by the session id). Holds the session record so that a session
 * works whichever gateway isolate a request lands in; ends on DELETE or after SESSION_TTL_SECONDS
 * idle (alarm). Storage keys: see docs/storage-schema.md.
 */
export class SessionObject extends DurableObject {
  async open(record: SessionRecord): Promise<void> {
    await this.ctx.storage.put(RECORD_KEY, record);
    await this.ctx.storage.setAlarm(record.lastSeenAt + record.ttlSeconds * 1000);
  }

  /** The live record (and marks it used), or null for an unknown, ended or expired session. */
  async touch(): Promise<SessionRecord | null> {
    const record = await this.ctx.storage.get<SessionRecord>(RECORD_KEY);
    if (!record) return null;
    const now = Date.now();
    if (now - record.lastSeenAt > record.ttlSeconds * 1000) {
      await this.ctx.storage.deleteAll();
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
    await this.ctx.storage.deleteAll();
    return existed;
  }

  override async alarm(): Promise<void> {
    const record = await this.ctx.storage.get<SessionRecord>(RECORD_KEY);
    if (!record) return;
    const expiresAt = record.lastSeenAt + record.ttlSeconds * 1000;
    if (Date.now() >= expiresAt) await this.ctx.storage.deleteAll();
    else await this.ctx.storage.setAlarm(expiresAt);
  }
}
