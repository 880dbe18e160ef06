import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
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

/**
 * Until teams and keys exist, DEV_API_KEY (when set) is the one valid key. With no key configured
 * the gateway is open, which `npm run dev` never does: it always sets one.
 */
export const requireApiKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { devApiKey } = requireConfig(c);
  if (devApiKey !== undefined) {
    const key = presentedKey(c.req.raw.headers);
    if (key === undefined) {
      throw new HttpError(
        401,
        "unauthorized",
        "An API key is required: send Authorization: Bearer <key> or X-API-Key",
        CHALLENGE,
      );
    }
    if (!(await sameSecret(key, devApiKey)))
      throw new HttpError(401, "unauthorized", "The API key is not valid", CHALLENGE);
  }
  await next();
};
