import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { DEFAULT_TEAM } from "../teams/schema";
import { TeamStore } from "../teams/store";
import { timed } from "../timing/clock";
import { requireConfig } from "./config";
import { HttpError } from "./errors";

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="mcp"' };

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
const touched = new Map<string, number>();

/**
 * Every /mcp and /v1/* request carries an API key: a team's key (looked up by its SHA-256 in KV)
 * or, for local development and tests, DEV_API_KEY (team `default`). Sets the team and key id.
 */
export const requireApiKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  await timed(c.get("clock"), "auth", () => authenticate(c));
  await next();
};

async function authenticate(c: Context<AppEnv>): Promise<void> {
  const { devApiKey } = requireConfig(c);
  const key = presentedKey(c.req.raw.headers);
  if (key === undefined) {
    throw new HttpError(
      401,
      "unauthorized",
      "An API key is required: send Authorization: Bearer <key> or X-API-Key",
      CHALLENGE,
    );
  }
  if (devApiKey !== undefined && (await sameSecret(key, devApiKey))) {
    c.set("team", DEFAULT_TEAM);
    c.set("keyId", "dev");
  } else {
    const teams = new TeamStore(c.env.TEAMS);
    const record = await teams.findKey(key);
    if (!record) throw new HttpError(401, "unauthorized", "The API key is not valid", CHALLENGE);
    c.set("team", record.team);
    c.set("keyId", record.id);
    const last = touched.get(record.id) ?? 0;
    if (Date.now() - last > TOUCH_EVERY_MS) {
      touched.set(record.id, Date.now());
      c.executionCtx.waitUntil(teams.touchKey(record.id));
    }
  }
}
