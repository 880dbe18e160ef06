import type { GatewayEnv } from "../env";
import { HttpError } from "../http/errors";
import { bearerChallenge, isOAuthToken, oauthIdentity } from "../oauth/tokens";
import { type ApiKey, DEFAULT_TEAM } from "../teams/schema";
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

const TOUCH_EVERY_MS = 60_000;
/** Per-isolate state: when this isolate last wrote each key's last use (one write per TOUCH_EVERY_MS). */
const touched = new Map<string, number>();

/**
 * The key every /mcp and /v1/* request carries: a team's key (looked up by its SHA-256 in KV) or,
 * for local development and tests, DEV_API_KEY (team `default`). With `requestUrl` (the request's
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
  if (devApiKey !== undefined && (await sameSecret(key, devApiKey)))
    return { team: DEFAULT_TEAM, keyId: "dev" };
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
    const record = await teams.findKey(key);
    if (!record) throw new HttpError(401, "unauthorized", "The API key is not valid", challenge());
    found = { team: record.team, keyId: record.id };
  }
  const last = touched.get(found.keyId) ?? 0;
  if (found.keyId !== "dev" && Date.now() - last > TOUCH_EVERY_MS) {
    touched.set(found.keyId, Date.now());
    waitUntil(teams.touchKey(found.keyId));
  }
  return found;
}
