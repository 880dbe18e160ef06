import { base64url, hex, sha256 } from "../../../shared/hash";
import { KeyRecord, type TeamInput, TeamRecord } from "./schema";

const TEAM_PREFIX = "team:v1:";

/**
 * Teams and API keys in KV (docs/storage-schema.md). Keys are stored as SHA-256 hashes: the key is
 * shown once, at creation. Lookups by hash, listings by prefix.
 */
export class TeamStore {
  constructor(private readonly kv: KVNamespace) {}

  async getTeam(name: string): Promise<TeamRecord | null> {
    const parsed = TeamRecord.safeParse(await this.kv.get(`${TEAM_PREFIX}${name}`, "json"));
    return parsed.success ? parsed.data : null;
  }

  /** One page of stored team names in key order (one KV list call); `cursor` when more follow. */
  async listTeams(page: { limit: number; cursor?: string }): Promise<{ names: string[]; cursor?: string }> {
    const listed = await this.kv.list({ prefix: TEAM_PREFIX, limit: page.limit, cursor: page.cursor });
    const names = listed.keys.map((k) => k.name.slice(TEAM_PREFIX.length));
    return listed.list_complete ? { names } : { names, cursor: listed.cursor };
  }

  async putTeam(name: string, input: TeamInput): Promise<{ team: TeamRecord; created: boolean }> {
    const old = await this.getTeam(name);
    const now = Date.now();
    const team: TeamRecord = { ...input, name, createdAt: old?.createdAt ?? now, updatedAt: now };
    await this.kv.put(`${TEAM_PREFIX}${name}`, JSON.stringify(team));
    return { team, created: old === null };
  }

  /** Deletes the team and revokes all its keys. */
  async deleteTeam(name: string): Promise<boolean> {
    const old = await this.getTeam(name);
    for (const key of await this.listKeys(name)) await this.revokeKey(key.id);
    await this.kv.delete(`${TEAM_PREFIX}${name}`);
    return old !== null;
  }

  async createKey(team: string, name: string, user?: string): Promise<{ record: KeyRecord; key: string }> {
    const secret = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const key = `cmk_${secret}`;
    const id = `key_${hex(crypto.getRandomValues(new Uint8Array(8)))}`;
    const record: KeyRecord = {
      id,
      team,
      name,
      ...(user !== undefined ? { user } : {}),
      prefix: key.slice(0, 10),
      hash: await sha256(key),
      createdAt: Date.now(),
    };
    await Promise.all([
      this.kv.put(`apikey:v1:${record.hash}`, JSON.stringify(record)),
      this.kv.put(`keyid:v1:${id}`, JSON.stringify(record)),
      this.kv.put(`teamkey:v1:${team}:${id}`, ""),
    ]);
    return { record, key };
  }

  /** The key's record by the SHA-256 of the key (how it is stored). */
  async findKeyByHash(hash: string): Promise<KeyRecord | null> {
    const parsed = KeyRecord.safeParse(await this.kv.get(`apikey:v1:${hash}`, "json"));
    return parsed.success ? parsed.data : null;
  }

  /** The key's record by id (what an OAuth grant names), or null once it is revoked. */
  async getKeyById(id: string): Promise<KeyRecord | null> {
    const parsed = KeyRecord.safeParse(await this.kv.get(`keyid:v1:${id}`, "json"));
    return parsed.success ? parsed.data : null;
  }

  async listKeys(team: string): Promise<KeyRecord[]> {
    const listed = await this.kv.list({ prefix: `teamkey:v1:${team}:` });
    const records = await Promise.all(
      listed.keys.map(async ({ name }) =>
        KeyRecord.safeParse(await this.kv.get(`keyid:v1:${name.split(":").at(-1)}`, "json")),
      ),
    );
    return records.flatMap((r) => (r.success ? [r.data] : []));
  }

  async revokeKey(id: string): Promise<boolean> {
    const record = await this.getKeyById(id);
    if (!record) return false;
    await Promise.all([
      this.kv.delete(`apikey:v1:${record.hash}`),
      this.kv.delete(`keyid:v1:${id}`),
      this.kv.delete(`teamkey:v1:${record.team}:${id}`),
    ]);
    return true;
  }

  async lastUsed(ids: string[]): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    await Promise.all(
      ids.map(async (id) => {
        const at = Number(await this.kv.get(`lastused:v1:${id}`));
        if (at > 0) out[id] = at;
      }),
    );
    return out;
  }

  async touchKey(id: string): Promise<void> {
    await this.kv.put(`lastused:v1:${id}`, String(Date.now()));
  }
}
