import { base64url } from "../../shared/hash";
import type { FlowAnswer, FlowStart, OpenedFlow } from "./answers";
import type { FlowRow } from "./schema";
import type { StoreBase } from "./tables";

/** A connect link works this long (the contract: at least 10 minutes). */
export const FLOW_TTL_MS = 15 * 60_000;
/** Pending flows one user may hold; opening one more drops the oldest. */
export const MAX_FLOWS_PER_USER = 20;
const HEX_64 = /^[0-9a-f]{64}$/;

/**
 * Pending connect flows: opened when a call needs a connection (the link's id), started when the
 * user opens the link (state hash, sealed PKCE verifier, discovery), taken once by the callback.
 * Each step checks the flow's user, server, state and expiry in one synchronous step, so two
 * callbacks cannot both take a flow; a refused step changes nothing.
 */
export class Flows {
  constructor(private readonly base: StoreBase) {}

  async open(user: string, server: string): Promise<OpenedFlow> {
    const now = Date.now();
    const id = `cf_${base64url(crypto.getRandomValues(new Uint8Array(24)))}`;
    const expiresAt = now + FLOW_TTL_MS;
    const sql = this.base.sql;
    this.base.storage.transactionSync(() => {
      sql.exec("DELETE FROM flows WHERE expires_at <= ?", now);
      sql.exec(
        `DELETE FROM flows WHERE id IN (SELECT id FROM flows WHERE user = ? ORDER BY created_at DESC LIMIT -1 OFFSET ?)`,
        user,
        MAX_FLOWS_PER_USER - 1,
      );
      sql.exec(
        "INSERT INTO flows (id, user, server, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
        id,
        user,
        server,
        now,
        expiresAt,
      );
    });
    await this.base.alarmAt(expiresAt);
    return { id, expiresAt };
  }

  peek(id: string, user: string): FlowAnswer<{ server: string; expiresAt: number }> {
    const row = this.row(id);
    const refused = this.refusal(row, user);
    if (refused || !row) return { ok: false, reason: refused ?? "unknown" };
    return { ok: true, server: row.server, expiresAt: row.expires_at };
  }

  /** A pending flow's user, server and expiry, whoever asks (the connect page, before it knows who opened it). */
  owner(id: string): FlowAnswer<{ user: string; server: string; expiresAt: number }> {
    const row = this.row(id);
    if (!row) return { ok: false, reason: "unknown" };
    if (row.expires_at <= Date.now()) return { ok: false, reason: "expired" };
    return { ok: true, user: row.user, server: row.server, expiresAt: row.expires_at };
  }

  /** Deletes one pending flow of `user` (the user declined the link); false when there was none. */
  drop(id: string, user: string): boolean {
    return this.base.sql.exec("DELETE FROM flows WHERE id = ? AND user = ?", id, user).rowsWritten > 0;
  }

  /** Deletes a user's pending flows; how many there were. */
  forget(user: string): number {
    return this.base.sql.exec("DELETE FROM flows WHERE user = ?", user).rowsWritten;
  }

  /** Records the state hash, verifier and discovery of the authorization URL just made for a flow. */
  async start(id: string, user: string, server: string, start: FlowStart): Promise<FlowAnswer<object>> {
    if (!HEX_64.test(String(start?.stateHash))) throw new TypeError("stateHash: must be 64 hex digits");
    for (const field of ["verifier", "discovery"] as const) {
      if (typeof start[field] !== "string" || start[field].length === 0 || start[field].length > 64_000) {
        throw new TypeError(`${field}: must be a non-empty string of at most 64,000 characters`);
      }
    }
    const refused = this.refusal(this.row(id), user, server);
    if (refused) return { ok: false, reason: refused };
    const verifier = await this.base.seal("verifier", user, `${server}#${id}`, start.verifier);
    // Sealing awaited: check again, in the same synchronous step as the write.
    const again = this.refusal(this.row(id), user, server);
    if (again) return { ok: false, reason: again };
    this.base.sql.exec(
      "UPDATE flows SET state_hash = ?, verifier = ?, discovery = ? WHERE id = ?",
      start.stateHash,
      verifier,
      start.discovery,
      id,
    );
    return { ok: true };
  }

  async take(
    id: string,
    user: string,
    stateHash: string,
  ): Promise<FlowAnswer<{ server: string; verifier: string; discovery: string }>> {
    const row = this.row(id);
    const refused = this.refusal(row, user);
    if (refused || !row) return { ok: false, reason: refused ?? "unknown" };
    if (row.state_hash === null || row.verifier === null || row.discovery === null) {
      return { ok: false, reason: "not-started" };
    }
    if (row.state_hash !== stateHash) return { ok: false, reason: "wrong-state" };
    // Deleted before anything is awaited: a second callback finds nothing.
    this.base.sql.exec("DELETE FROM flows WHERE id = ?", id);
    const verifier = await this.base.open("verifier", user, `${row.server}#${id}`, row.verifier, () => {});
    if (verifier === null) return { ok: false, reason: "unknown" };
    return { ok: true, server: row.server, verifier, discovery: row.discovery };
  }

  /** Deletes expired flows; the next expiry, or null when none is pending. */
  sweep(): number | null {
    const sql = this.base.sql;
    sql.exec("DELETE FROM flows WHERE expires_at <= ?", Date.now());
    return sql.exec<{ at: number | null }>("SELECT MIN(expires_at) AS at FROM flows").one().at;
  }

  private refusal(row: FlowRow | undefined, user: string, server?: string) {
    if (!row) return "unknown" as const;
    if (row.expires_at <= Date.now()) return "expired" as const;
    if (row.user !== user) return "wrong-user" as const;
    if (server !== undefined && row.server !== server) return "wrong-server" as const;
    return undefined;
  }

  private row(id: string): FlowRow | undefined {
    if (typeof id !== "string" || id.length > 100) return undefined;
    return this.base.sql.exec<FlowRow>("SELECT * FROM flows WHERE id = ?", id).toArray()[0];
  }
}
