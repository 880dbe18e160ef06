import type { GatewayEnv } from "../env";
import { grantStore } from "./server";

/**
 * Ends every OAuth grant a key made (their refresh tokens and access tokens with them): the grants
 * are stored under the key's id (`grant:<keyId>:…`). Called after the key itself is deleted, which
 * already refuses its tokens on their next request (oauth/tokens.ts); this removes them from KV.
 */
export async function revokeGrantsOfKey(env: GatewayEnv, keyId: string): Promise<number> {
  const store = grantStore(env);
  let revoked = 0;
  let cursor: string | undefined;
  do {
    const page = await store.listUserGrants(keyId, { limit: 100, ...(cursor ? { cursor } : {}) });
    await Promise.all(page.items.map((grant) => store.revokeGrant(grant.id, keyId)));
    revoked += page.items.length;
    cursor = page.cursor;
  } while (cursor);
  return revoked;
}
