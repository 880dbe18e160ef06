import {
  type ConnectionView,
  USER_SECRET_MAX_CHARS,
  USER_SECRET_NAME,
  type UserSecretView,
} from "../../shared/contract/connections";
import { isoTime } from "../../shared/contract/time";
import type { Connection, ConnectionInput, ObtainedBy, Registration } from "./answers";
import type { ConnectionRow, RegistrationRow, UserSecretRow } from "./schema";
import type { StoreBase } from "./tables";

const OBTAINED_BY: readonly ObtainedBy[] = ["code", "refresh"];
/** Characters of a discovery or client JSON text. */
const MAX_JSON_CHARS = 64_000;

/** Connections, registrations and per-user secrets: the store's rows other than flows. */
export class Records {
  constructor(private readonly base: StoreBase) {}

  async connection(user: string, server: string): Promise<Connection | null> {
    const row = this.row(user, server);
    if (!row) return null;
    const tokens = await this.tokens(row);
    return {
      status: row.status === "connected" && tokens !== null ? "connected" : "expired",
      tokens: row.status === "connected" ? tokens : null,
      issuer: row.issuer,
      resource: row.resource,
      scopes: splitScopes(row.scopes),
      expiresAt: row.expires_at,
      obtainedBy: row.obtained_by as ObtainedBy,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  async save(user: string, server: string, input: ConnectionInput): Promise<void> {
    if (typeof input?.tokens !== "string" || input.tokens.length > MAX_JSON_CHARS) {
      throw new TypeError(`tokens: must be a string of at most ${MAX_JSON_CHARS} characters`);
    }
    if (!OBTAINED_BY.includes(input.obtainedBy))
      throw new TypeError(`obtainedBy: one of ${OBTAINED_BY.join(", ")}`);
    const sealed = await this.base.seal("tokens", user, server, input.tokens);
    const now = Date.now();
    this.base.sql.exec(
      `INSERT INTO connections (user, server, status, tokens, issuer, resource, scopes, obtained_by, expires_at, refreshing_until, created_at, updated_at)
       VALUES (?, ?, 'connected', ?, ?, ?, ?, ?, ?, NULL, ?, ?)
       ON CONFLICT (user, server) DO UPDATE SET status = 'connected', tokens = excluded.tokens,
         issuer = excluded.issuer, resource = excluded.resource, scopes = excluded.scopes,
         obtained_by = excluded.obtained_by, expires_at = excluded.expires_at, refreshing_until = NULL,
         created_at = CASE WHEN excluded.obtained_by = 'code' THEN excluded.created_at ELSE created_at END,
         updated_at = excluded.updated_at`,
      user,
      server,
      sealed,
      String(input.issuer),
      String(input.resource),
      (input.scopes ?? []).map(String).join(" "),
      input.obtainedBy,
      typeof input.expiresAt === "number" ? input.expiresAt : null,
      now,
      now,
    );
  }

  expire(user: string, server: string): boolean {
    const cursor = this.base.sql.exec(
      "UPDATE connections SET status = 'expired', tokens = NULL, expires_at = NULL, refreshing_until = NULL, updated_at = ? WHERE user = ? AND server = ?",
      Date.now(),
      user,
      server,
    );
    return cursor.rowsWritten > 0;
  }

  async remove(user: string, server: string): Promise<{ removed: boolean; tokens: string | null }> {
    const row = this.row(user, server);
    if (!row) return { removed: false, tokens: null };
    const tokens = await this.base.open("tokens", user, server, row.tokens, () => {});
    this.base.sql.exec("DELETE FROM connections WHERE user = ? AND server = ?", user, server);
    return { removed: true, tokens };
  }

  async list(user?: string): Promise<ConnectionView[]> {
    const where = user === undefined ? "" : "WHERE user = ?";
    const rows = this.base.sql
      .exec<ConnectionRow>(
        `SELECT * FROM connections ${where} ORDER BY user, server`,
        ...(user === undefined ? [] : [user]),
      )
      .toArray();
    const views: ConnectionView[] = [];
    for (const row of rows) {
      const connected = row.status === "connected" && (await this.tokens(row)) !== null;
      views.push({
        server: row.server,
        user: row.user,
        status: connected ? "connected" : "expired",
        scopes: splitScopes(row.scopes),
        connectedAt: isoTime(row.created_at),
        updatedAt: isoTime(row.updated_at),
        ...(connected && row.expires_at !== null ? { expiresAt: isoTime(row.expires_at) } : {}),
      });
    }
    return views;
  }

  claimRefresh(user: string, server: string, ms: number): boolean {
    const now = Date.now();
    const cursor = this.base.sql.exec(
      "UPDATE connections SET refreshing_until = ? WHERE user = ? AND server = ? AND status = 'connected' AND (refreshing_until IS NULL OR refreshing_until < ?)",
      now + Math.min(Math.max(ms, 0), 60_000),
      user,
      server,
      now,
    );
    return cursor.rowsWritten > 0;
  }

  async registration(server: string): Promise<Registration> {
    const row = this.base.sql
      .exec<RegistrationRow>("SELECT * FROM registrations WHERE server = ?", server)
      .toArray()[0];
    if (!row) return { discovery: null, client: null };
    const client = await this.base.open("client", "", server, row.client, (resealed) =>
      this.base.sql.exec("UPDATE registrations SET client = ? WHERE server = ?", resealed, server),
    );
    return { discovery: row.discovery, client };
  }

  saveDiscovery(server: string, discovery: string | null): void {
    jsonText("discovery", discovery);
    this.base.sql.exec(
      `INSERT INTO registrations (server, discovery, discovered_at) VALUES (?, ?, ?)
       ON CONFLICT (server) DO UPDATE SET discovery = excluded.discovery, discovered_at = excluded.discovered_at`,
      server,
      discovery,
      discovery === null ? null : Date.now(),
    );
  }

  async saveClient(server: string, client: string | null): Promise<void> {
    jsonText("client", client);
    const sealed = client === null ? null : await this.base.seal("client", "", server, client);
    this.base.sql.exec(
      `INSERT INTO registrations (server, client, registered_at) VALUES (?, ?, ?)
       ON CONFLICT (server) DO UPDATE SET client = excluded.client, registered_at = excluded.registered_at`,
      server,
      sealed,
      sealed === null ? null : Date.now(),
    );
  }

  async userSecret(user: string, name: string): Promise<string | null> {
    secretName(name);
    const row = this.base.sql
      .exec<UserSecretRow>("SELECT * FROM user_secrets WHERE user = ? AND name = ?", user, name)
      .toArray()[0];
    return this.base.open("user-secret", user, name, row?.value ?? null, (resealed) =>
      this.base.sql.exec(
        "UPDATE user_secrets SET value = ? WHERE user = ? AND name = ?",
        resealed,
        user,
        name,
      ),
    );
  }

  async setUserSecret(user: string, name: string, value: string | null): Promise<boolean> {
    secretName(name);
    if (value === null) {
      return (
        this.base.sql.exec("DELETE FROM user_secrets WHERE user = ? AND name = ?", user, name).rowsWritten > 0
      );
    }
    if (typeof value !== "string" || value === "" || value.length > USER_SECRET_MAX_CHARS) {
      throw new TypeError(`value: must be 1 to ${USER_SECRET_MAX_CHARS} characters`);
    }
    const sealed = await this.base.seal("user-secret", user, name, value);
    const now = Date.now();
    this.base.sql.exec(
      `INSERT INTO user_secrets (user, name, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (user, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      user,
      name,
      sealed,
      now,
      now,
    );
    return true;
  }

  listUserSecrets(user: string): UserSecretView[] {
    return this.base.sql
      .exec<UserSecretRow>("SELECT * FROM user_secrets WHERE user = ? ORDER BY name", user)
      .toArray()
      .map((row) => ({
        name: row.name,
        createdAt: isoTime(row.created_at),
        updatedAt: isoTime(row.updated_at),
      }));
  }

  /** Deletes every secret of a user; how many there were. */
  forgetUserSecrets(user: string): number {
    return this.base.sql.exec("DELETE FROM user_secrets WHERE user = ?", user).rowsWritten;
  }

  /** A row's tokens, re-sealed when the previous key sealed them; null when they cannot be read. */
  private tokens({ user, server, tokens }: ConnectionRow): Promise<string | null> {
    return this.base.open("tokens", user, server, tokens, (resealed) =>
      this.base.sql.exec(
        "UPDATE connections SET tokens = ? WHERE user = ? AND server = ?",
        resealed,
        user,
        server,
      ),
    );
  }

  private row(user: string, server: string): ConnectionRow | undefined {
    return this.base.sql
      .exec<ConnectionRow>("SELECT * FROM connections WHERE user = ? AND server = ?", user, server)
      .toArray()[0];
  }
}

const splitScopes = (scopes: string): string[] => scopes.split(" ").filter(Boolean);

function secretName(name: string): void {
  if (typeof name !== "string" || !USER_SECRET_NAME.test(name)) {
    throw new TypeError(`name: must match ${USER_SECRET_NAME.source}`);
  }
}

function jsonText(field: string, text: string | null): void {
  if (text !== null && (typeof text !== "string" || text.length > MAX_JSON_CHARS)) {
    throw new TypeError(`${field}: must be null or a string of at most ${MAX_JSON_CHARS} characters`);
  }
}
