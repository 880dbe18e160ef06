import { z } from "zod";
import { sha256 } from "../../../shared/hash";
import { loadConfig } from "../config";
import type { GatewayEnv } from "../env";
import { type ApiKey, DEFAULT_TEAM, DEV_KEY, keyIdentity } from "../teams/schema";
import { TeamStore } from "../teams/store";

/**
 * What a grant carries (encrypted in KV by the library, readable only with a token of the grant):
 * the team and id of the API key typed on the consent page. For DEV_API_KEY (`keyId` "dev") also
 * the SHA-256 of the key, so a rotated DEV_API_KEY ends the grants it made.
 */
export const GrantProps = z.object({
  team: z.string(),
  keyId: z.string(),
  devKeyHash: z.string().optional(),
});
export type GrantProps = z.infer<typeof GrantProps>;

/** The grant's props for a key that was just checked: `dev` or a stored key's team and id. */
export async function grantPropsFor(key: ApiKey, devApiKey: string | undefined): Promise<GrantProps> {
  if (key.keyId === "dev" && devApiKey !== undefined)
    return { team: key.team, keyId: key.keyId, devKeyHash: await sha256(devApiKey) };
  return { team: key.team, keyId: key.keyId };
}

/**
 * The key a grant acts as (and so its user), if it still exists: a stored key of the same team (one KV read), or the
 * DEV_API_KEY the grant was made with. Null once the key is revoked or its team deleted.
 */
export async function grantHolder(env: GatewayEnv, props: unknown): Promise<ApiKey | null> {
  const parsed = GrantProps.safeParse(props);
  if (!parsed.success) return null;
  const { team, keyId, devKeyHash } = parsed.data;
  if (keyId === "dev") {
    const loaded = loadConfig(env);
    const dev = loaded.ok ? loaded.config.devApiKey : undefined;
    if (dev === undefined || team !== DEFAULT_TEAM || devKeyHash !== (await sha256(dev))) return null;
    return DEV_KEY;
  }
  const record = await new TeamStore(env.TEAMS).getKeyById(keyId);
  return record && record.team === team ? keyIdentity(record) : null;
}
