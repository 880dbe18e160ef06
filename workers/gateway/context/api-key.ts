import { sha256 } from "../../../shared/hash";
import type { GatewayEnv } from "../env";
import { HttpError } from "../http/errors";
import { bearerChallenge, isOAuthToken, oauthIdentity } from "../oauth/tokens";
import { type ApiKey, DEV_KEY, keyIdentity } from "../teams/schema";
import { TeamStore } from "../teams/store";

/** The key a request presents: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function presentedKey(headers: Headers): string | undefined {
  const auth = headers.get("Authorization");
  if (auth) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return match?.[1];
  }
  return headers.get("X-API-Key")?.trim() || undefined;
}

/** Compares in constant time (hashing first makes the lengths equal). */
export async function sameSecret(a: string, b: string): Promise<boolean> {
  const enc = new TextEncoder();
  const [ha, hb] = await Promise.all([
    crypto.subtle.digest("SHA-256", enc.encode(a)),
    crypto.subtle.digest("SHA-256", enc.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(ha, hb);
}

const KEY_MEMO_MS = 5_000;
const KEY_MEMO_MAX = 1_000;
/**
 * Per-isolate state: stored keys found in KV, by their SHA-256, each trusted for KEY_MEMO_MS (a key
 * not found is asked again every time); emptied when this isolate revokes a key or deletes a team.
 */
const keyMemo = new Map<string, { at: number; holder: ApiKey }>();

/** Who an API key (not an OAuth token) acts as: DEV_API_KEY, a stored key, or null. */
export async function keyHolder(
  env: GatewayEnv,
  devApiKey: string | undefined,
  key: string,
): Promise<ApiKey | null> {
  if (devApiKey !== undefined && (await sameSecret(key, devApiKey))) return DEV_KEY;
  const hash = await sha256(key);
  const hit = keyMemo.get(hash);
  if (hit && Date.now() - hit.at < KEY_MEMO_MS) return hit.holder;
  const record = await new TeamStore(env.TEAMS).findKeyByHash(hash);
  if (!record) {
    keyMemo.delete(hash);
    return null;
  }
  if (keyMemo.size >= KEY_MEMO_MAX) keyMemo.clear();
  const holder = keyIdentity(record);
  keyMemo.set(hash, { at: Date.now(), holder });
  return holder;
}

/** Forgets every key this isolate found: a revoked key, or a deleted team's, is refused here at once. */
export function forgetKeys(): void {
  keyMemo.clear();
}

const TOUCH_EVERY_MS = 60_000;
/** Per-isolate state: when this isolate last wrote each key's last use (one write per TOUCH_EVERY_MS). */
const touched = new Map<string, number>();

/**
 * The key every /mcp and /v1/* request carries: a team's key (looked up by its SHA-256 in KV) or,
 * for local development and tests, DEV_API_KEY (team `default`, user `dev`). With `requestUrl` (the request's
 * own URL) an OAuth access token is accepted as well, as the key that granted it (oauth/tokens.ts),
 * and a 401 names the protected resource metadata. Missing or unknown: 401.
 */
export async function authenticate(
  env: GatewayEnv,
  devApiKey: string | undefined,
  headers: Headers,
  waitUntil: (promise: Promise<unknown>) => void,
  requestUrl?: string,
): Promise<ApiKey> {
  const challenge = (error?: "invalid_token") => ({ "WWW-Authenticate": bearerChallenge(requestUrl, error) });
  const key = presentedKey(headers);
  if (key === undefined) {
    throw new HttpError(
      401,
      "unauthorized",
      "An API key is required: send Authorization: Bearer <key> or X-API-Key",
      challenge(),
    );
  }
  const teams = new TeamStore(env.TEAMS);
  let found: ApiKey | null;
  if (requestUrl !== undefined && isOAuthToken(key)) {
    found = await oauthIdentity(env, requestUrl, key);
    if (!found)
      throw new HttpError(
        401,
        "unauthorized",
        "The access token is not valid (expired, revoked, or its API key was revoked): authorize again",
        challenge("invalid_token"),
      );
  } else {
    found = await keyHolder(env, devApiKey, key);
    if (!found) throw new HttpError(401, "unauthorized", "The API key is not valid", challenge());
  }
  const last = touched.get(found.keyId) ?? 0;
  if (found.keyId !== "dev" && Date.now() - last > TOUCH_EVERY_MS) {
    touched.set(found.keyId, Date.now());
    waitUntil(teams.touchKey(found.keyId));
  }
  return found;
}
