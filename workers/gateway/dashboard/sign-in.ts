import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { GatewayEnv } from "../env";

/** What the sign-in functions need of a request's Hono env: the Worker's bindings (KV). */
type BindingsEnv = { Bindings: GatewayEnv };

/** The operator's signed-in browser: the sign-in's id (in the cookie) and its CSRF token (in forms). */
export interface OperatorSignIn {
  id: string;
  csrf: string;
  expiresAt: number;
}

/** Stored names from before sign-ins had their own word: renaming them would sign every operator out. */
export const COOKIE = "dash_session";
const SESSION_TTL_SECONDS = 8 * 3600;
const KEY_PREFIX = "dashboard:v1:session:";
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Sign-ins live in the TEAMS KV namespace (`dashboard:v1:session:<id>` → `{ csrf, expiresAt }`, with
 * KV's own expiry), so signing out ends one everywhere KV has caught up. The cookie carries
 * `<id>.<HMAC-SHA256(id)>` under a key derived from ADMIN_TOKEN: a changed token ends every sign-in,
 * and a cookie the gateway did not make costs no KV read.
 */
export async function startSignIn<E extends BindingsEnv>(
  c: Context<E>,
  token: string,
): Promise<OperatorSignIn> {
  const signIn: OperatorSignIn = {
    id: randomHex(16),
    csrf: randomHex(16),
    expiresAt: Date.now() + SESSION_TTL_SECONDS * 1000,
  };
  await c.env.TEAMS.put(
    KEY_PREFIX + signIn.id,
    JSON.stringify({ csrf: signIn.csrf, expiresAt: signIn.expiresAt }),
    { expirationTtl: SESSION_TTL_SECONDS },
  );
  setCookie(c, COOKIE, `${signIn.id}.${await sign(token, signIn.id)}`, {
    path: "/dashboard",
    httpOnly: true,
    sameSite: "Strict",
    secure: !LOOPBACK.has(new URL(c.req.url).hostname),
    maxAge: SESSION_TTL_SECONDS,
  });
  return signIn;
}

/** The sign-in the request's cookie names, if its signature holds and it has not ended or expired. */
export async function currentSignIn<E extends BindingsEnv>(
  c: Context<E>,
  token: string,
): Promise<OperatorSignIn | undefined> {
  const cookie = getCookie(c, COOKIE);
  const match = cookie ? /^([0-9a-f]{32})\.([0-9a-f]{64})$/.exec(cookie) : null;
  if (!match?.[1] || !match[2]) return undefined;
  const id = match[1];
  if (!(await sameHex(match[2], await sign(token, id)))) return undefined;
  const stored = await c.env.TEAMS.get<{ csrf: string; expiresAt: number }>(KEY_PREFIX + id, "json");
  if (!stored || stored.expiresAt <= Date.now()) return undefined;
  return { id, csrf: stored.csrf, expiresAt: stored.expiresAt };
}

export async function endSignIn<E extends BindingsEnv>(
  c: Context<E>,
  signIn: OperatorSignIn | undefined,
): Promise<void> {
  if (signIn) await c.env.TEAMS.delete(KEY_PREFIX + signIn.id);
  deleteCookie(c, COOKIE, { path: "/dashboard" });
}

/** Whether a form's CSRF token is the sign-in's. */
export function sameCsrf(signIn: OperatorSignIn, given: unknown): Promise<boolean> {
  return typeof given === "string" && /^[0-9a-f]{32}$/.test(given)
    ? sameHex(given, signIn.csrf)
    : Promise.resolve(false);
}

async function sign(token: string, id: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    await crypto.subtle.digest("SHA-256", enc.encode(`dashboard-session:${token}`)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(id))));
}

async function sameHex(a: string, b: string): Promise<boolean> {
  if (a.length !== b.length) return false;
  const enc = new TextEncoder();
  return crypto.subtle.timingSafeEqual(enc.encode(a), enc.encode(b));
}

function randomHex(bytes: number): string {
  return hex(crypto.getRandomValues(new Uint8Array(bytes)));
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}
