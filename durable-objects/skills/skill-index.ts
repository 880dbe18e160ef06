import { DurableObject } from "cloudflare:workers";
import type { SkillSummary } from "../../shared/contract/skills";
import type { Reserved, SkillIndexApi, VersionMeta } from "./answers";
import { ADDED_COLUMNS, SCHEMA, SUMMARY_COLUMNS, toSummary, type VersionRow } from "./rows";

/** A reservation older than this belongs to a save that died between reserve and commit. */
const STALE_RESERVATION_MS = 10 * 60_000;

type SummaryRow = Omit<VersionRow, "code_chars" | "ready">;

/**
 * One team's skills (named by the team): which versions exist and their metadata; the code is in R2
 * (workers/gateway/skills/store.ts). No method awaits anything, so calls run one at a time and
 * two saves can neither share a number nor lose one. A save is `reserve` (a row readers do not see
 * yet), the R2 write, then `commit` (or `abort`). A number that was ever visible is never given
 * again, even after `remove`, so no R2 key a reader could have seen is written twice.
 * Schema: docs/storage-schema.md.
 */
export class SkillIndex extends DurableObject implements SkillIndexApi {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    for (const statement of SCHEMA) sql.exec(statement);
    const columns = sql.exec<{ name: string }>("PRAGMA table_info(versions)").toArray();
    for (const [column, type] of ADDED_COLUMNS) {
      if (!columns.some((c) => c.name === column))
        sql.exec(`ALTER TABLE versions ADD COLUMN ${column} ${type}`);
    }
  }

  /** The next version of `name`, not yet visible; refused when a new name would pass `maxSkills`. */
  async reserve(name: string, meta: VersionMeta, maxSkills: number): Promise<Reserved> {
    const sql = this.ctx.storage.sql;
    return this.ctx.storage.transactionSync((): Reserved => {
      sql.exec("DELETE FROM versions WHERE ready = 0 AND reserved_at < ?", Date.now() - STALE_RESERVATION_MS);
      const known = sql.exec("SELECT 1 FROM versions WHERE name = ? LIMIT 1", name).toArray().length > 0;
      if (!known) {
        const skills = sql.exec<{ n: number }>("SELECT COUNT(DISTINCT name) AS n FROM versions").one().n;
        if (skills + 1 > maxSkills) return { ok: false, skills };
      }
      const last = sql
        .exec<{ v: number }>("SELECT last_version AS v FROM counters WHERE name = ?", name)
        .toArray()[0]?.v;
      const version = (last ?? 0) + 1;
      sql.exec(
        "INSERT INTO counters (name, last_version) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET last_version = excluded.last_version",
        name,
        version,
      );
      sql.exec(
        `INSERT INTO versions (name, version, description, input_schema, output_schema, language, code_chars, updated_at, ready, reserved_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
        name,
        version,
        meta.description,
        meta.inputSchema ?? null,
        meta.outputSchema ?? null,
        meta.language,
        meta.codeChars,
        meta.updatedAt,
        Date.now(),
      );
      return { ok: true, version };
    });
  }

  /** Makes a reserved version visible; false when the reservation is gone (expired). */
  async commit(name: string, version: number): Promise<boolean> {
    const cursor = this.ctx.storage.sql.exec(
      "UPDATE versions SET ready = 1 WHERE name = ? AND version = ? AND ready = 0",
      name,
      version,
    );
    return cursor.rowsWritten > 0;
  }

  /** Drops a reservation whose R2 write failed; its number is given back unless a later save took one. */
  async abort(name: string, version: number): Promise<void> {
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      sql.exec("DELETE FROM versions WHERE name = ? AND version = ? AND ready = 0", name, version);
      sql.exec(
        "UPDATE counters SET last_version = ? WHERE name = ? AND last_version = ?",
        version - 1,
        name,
        version,
      );
    });
  }

  /** The latest version of every skill, by name. */
  async list(): Promise<SkillSummary[]> {
    return this.latestWhere("", []);
  }

  /** The latest version of each of `names` that exists. */
  async latest(names: string[]): Promise<SkillSummary[]> {
    return this.latestWhere("AND name IN (SELECT value FROM json_each(?))", [JSON.stringify(names)]);
  }

  async get(name: string, version?: number): Promise<SkillSummary | null> {
    if (version === undefined) return this.latestWhere("AND name = ?", [name])[0] ?? null;
    const row = this.ctx.storage.sql
      .exec<SummaryRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM versions WHERE ready = 1 AND name = ? AND version = ?`,
        name,
        version,
      )
      .toArray()[0];
    return row ? toSummary(row) : null;
  }

  /** Deletes every visible version of `name` and says which they were (their R2 objects go next). */
  async remove(name: string): Promise<number[]> {
    const sql = this.ctx.storage.sql;
    return this.ctx.storage.transactionSync(() => {
      const versions = sql
        .exec<{ version: number }>("SELECT version FROM versions WHERE ready = 1 AND name = ?", name)
        .toArray()
        .map((r) => r.version);
      sql.exec("DELETE FROM versions WHERE ready = 1 AND name = ?", name);
      return versions;
    });
  }

  private latestWhere(filter: string, params: string[]): SkillSummary[] {
    // SQLite takes the bare columns of a max() aggregate from the row holding the maximum.
    return this.ctx.storage.sql
      .exec<SummaryRow>(
        `SELECT name, max(version) AS version, description, input_schema, output_schema, language, updated_at FROM versions
         WHERE ready = 1 ${filter} GROUP BY name ORDER BY name`,
        ...params,
      )
      .toArray()
      .map(toSummary);
  }
}
