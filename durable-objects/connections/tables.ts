import { SERVER_NAME } from "../../shared/contract/tools";
import { type SealBinding, Sealer, type SealPurpose } from "../../shared/seal";
import { SCHEMA } from "./schema";

/** The secrets the store seals with (docs/security.md "Connections"). */
export interface ConnectionsEnv {
  CONNECTIONS_KEY?: string;
  CONNECTIONS_KEY_PREVIOUS?: string;
}

/** Characters of a user's name (a key's `user`, an email, or a key id). */
const MAX_USER_CHARS = 200;

/**
 * What every part of the store shares: its SQL, the team it belongs to (pinned by the first call;
 * a call naming another team is refused), and sealing bound to (team, user, subject).
 */
export class StoreBase {
  readonly sql: SqlStorage;
  #team: string | undefined;
  #sealer: Promise<Sealer> | undefined;

  constructor(
    readonly storage: DurableObjectStorage,
    private readonly env: ConnectionsEnv,
  ) {
    this.sql = storage.sql;
    for (const statement of SCHEMA) this.sql.exec(statement);
    this.#team = this.sql
      .exec<{ value: string }>("SELECT value FROM meta WHERE key = 'team'")
      .toArray()[0]?.value;
  }

  /** Checks the call's team, user and server; the first call pins the team. */
  check(team: string, user?: string, server?: string): void {
    if (typeof team !== "string" || !SERVER_NAME.test(team))
      throw new TypeError(`team: must match ${SERVER_NAME.source}`);
    if (this.#team === undefined) {
      this.sql.exec("INSERT OR IGNORE INTO meta (key, value) VALUES ('team', ?)", team);
      this.#team = team;
    } else if (this.#team !== team) {
      throw new Error(`This connection store is team "${this.#team}"'s, not "${team}"'s`);
    }
    if (user !== undefined && (typeof user !== "string" || user === "" || user.length > MAX_USER_CHARS)) {
      throw new TypeError(`user: must be 1 to ${MAX_USER_CHARS} characters`);
    }
    if (server !== undefined && (typeof server !== "string" || !SERVER_NAME.test(server))) {
      throw new TypeError(`server: must match ${SERVER_NAME.source}`);
    }
  }

  async seal(purpose: SealPurpose, user: string, subject: string, value: string): Promise<string> {
    return (await this.sealer()).seal(purpose, this.binding(user, subject), value);
  }

  /**
   * The value, or null when it cannot be read (an unknown key, or altered): such a value is reported
   * as needing a new connection, never thrown. One sealed under the previous key is re-sealed under
   * the current one by `rewrite`.
   */
  async open(
    purpose: SealPurpose,
    user: string,
    subject: string,
    sealed: string | null,
    rewrite: (resealed: string) => void,
  ): Promise<string | null> {
    if (sealed === null) return null;
    const opened = await (await this.sealer()).open(purpose, this.binding(user, subject), sealed);
    if (!opened.ok) return null;
    if (opened.resealed) rewrite(opened.resealed);
    return opened.value;
  }

  /** Sets the alarm to `at` unless it is already set earlier. */
  async alarmAt(at: number): Promise<void> {
    const current = await this.storage.getAlarm();
    if (current === null || current > at) await this.storage.setAlarm(at);
  }

  private binding(user: string, subject: string): SealBinding {
    if (this.#team === undefined) throw new Error("unreachable: sealing before the team is known");
    return { team: this.#team, user, subject };
  }

  private sealer(): Promise<Sealer> {
    this.#sealer ??= Sealer.from(
      "CONNECTIONS_KEY",
      this.env.CONNECTIONS_KEY,
      this.env.CONNECTIONS_KEY_PREVIOUS,
    );
    return this.#sealer;
  }
}
