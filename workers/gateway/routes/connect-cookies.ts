import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { base64url, fromBase64url } from "../../../shared/hash";
import type { AppEnv } from "../http/app-env";
import { requireConfig } from "../http/config";
import { onLoopback } from "../http/origin";
import { type ApiKey, keyIdentity } from "../teams/schema";
import { TeamStore } from "../teams/store";

/** The browser that signed in on a connect page with its user's key: this long it need not again. */
const KNOWN_USER_SECONDS = 8 * 3600;
const USER_COOKIE = "connect_user";
/** One cookie per flow (its id in the name), so two links opened in one browser do not collide. */
const flowCookie = (flow: string) => `connect_flow_${flow}`;
const PATH = "/connect";
const SALT = new TextEncoder().encode("edge-code-mcp connect pages v1");

/**
 * The connect pages' two cookies (routes/connect.ts), both `HttpOnly`, `SameSite=Lax` (the
 * callback arrives as a top-level redirect from the upstream's sign-in, which Strict would strip),
 * `Path=/connect`, `Secure` except on a loopback host. Each value is
 * `<expiry>.<base64url fields>.<HMAC-SHA256>` under a key derived with HKDF-SHA-256 from
 * `CONNECTIONS_KEY` (info `connect-cookie`); the MAC covers the cookie's name and its team, so a
 * value is good for one purpose, team (and flow) only. A changed `CONNECTIONS_KEY` ends them all.
 */
async function macKey(c: Context<AppEnv>): Promise<CryptoKey> {
  const secret = c.env.CONNECTIONS_KEY;
  if (!secret) throw new Error("Per-user connections are not configured (no CONNECTIONS_KEY)");
  const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, [
    "deriveKey",
  ]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: SALT, info: new TextEncoder().encode("connect-cookie") },
    base,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign", "verify"],
  );
}

const signed = (name: string, team: string, payload: string) =>
  new TextEncoder().encode(`${name}\n${team}\n${payload}`);

async function write(c: Context<AppEnv>, name: string, team: string, fields: string[], until: number) {
  const payload = `${Math.floor(until / 1000)}.${fields.map((f) => base64url(new TextEncoder().encode(f))).join(".")}`;
  const mac = await crypto.subtle.sign("HMAC", await macKey(c), signed(name, team, payload));
  setCookie(c, name, `${payload}.${base64url(mac)}`, {
    path: PATH,
    httpOnly: true,
    sameSite: "Lax",
    secure: !onLoopback(c.req.url),
    maxAge: Math.max(1, Math.floor((until - Date.now()) / 1000)),
  });
}

/** The fields of a cookie the gateway made for this name and team, unexpired; else undefined. */
async function read(c: Context<AppEnv>, name: string, team: string, count: number) {
  const parts = (getCookie(c, name) ?? "").split(".");
  if (parts.length !== count + 2 || !/^\d{1,12}$/.test(parts[0] ?? "")) return undefined;
  if (Number(parts[0]) * 1000 <= Date.now()) return undefined;
  try {
    const mac = fromBase64url(parts.at(-1) ?? "");
    const payload = parts.slice(0, -1).join(".");
    if (!(await crypto.subtle.verify("HMAC", await macKey(c), mac, signed(name, team, payload))))
      return undefined;
    return parts.slice(1, -1).map((f) => new TextDecoder().decode(fromBase64url(f)));
  } catch {
    return undefined;
  }
}

/** After the user's key was checked on a connect page: this browser is that user of `team` for a while. */
export function rememberUser(c: Context<AppEnv>, team: string, holder: ApiKey): Promise<void> {
  return write(c, USER_COOKIE, team, [holder.user, holder.keyId], Date.now() + KNOWN_USER_SECONDS * 1000);
}

/**
 * The user of `team` this browser signed in as, if its cookie holds and the key it signed in with
 * still acts as that user (a revoked key's browser is asked again).
 */
export async function knownUser(c: Context<AppEnv>, team: string): Promise<string | undefined> {
  const [user, keyId] = (await read(c, USER_COOKIE, team, 2)) ?? [];
  if (user === undefined || keyId === undefined) return undefined;
  if (keyId === "dev") return requireConfig(c).devApiKey !== undefined && user === "dev" ? user : undefined;
  const record = await new TeamStore(c.env.TEAMS).getKeyById(keyId);
  const now = record ? keyIdentity(record) : undefined;
  return now?.team === team && now.user === user ? user : undefined;
}

/** The browser that is sent to the upstream's sign-in for `flow` is the one the callback must come back to. */
export function bindFlow(
  c: Context<AppEnv>,
  team: string,
  flow: string,
  user: string,
  until: number,
): Promise<void> {
  return write(c, flowCookie(flow), team, [user], until);
}

/** The user this browser started `flow` of `team` as, if it did. */
export async function flowUser(c: Context<AppEnv>, team: string, flow: string): Promise<string | undefined> {
  return (await read(c, flowCookie(flow), team, 1))?.[0];
}

export function unbindFlow(c: Context<AppEnv>, flow: string): void {
  deleteCookie(c, flowCookie(flow), { path: PATH, secure: !onLoopback(c.req.url) });
}
