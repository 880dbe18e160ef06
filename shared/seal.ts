import { base64url, fromBase64url, hex } from "./hash";

/**
 * What a sealed value is: each purpose is sealed with its own key (HKDF info), so a value of one
 * kind never opens as another.
 */
export type SealPurpose = "tokens" | "client" | "verifier" | "user-secret";

/**
 * The row a sealed value belongs to, bound in as AES-GCM additional data: a ciphertext copied to
 * another team's, user's or server's row does not open there. `user` is "" for a team-wide value
 * (a server's client registration); `subject` is the server's name, or the secret's name.
 */
export interface SealBinding {
  team: string;
  user: string;
  subject: string;
}

/**
 * An opened value. `stale`: it was sealed under the previous key, so the caller should write it
 * back sealed under the current one (`resealed`). Not ok: sealed under a key this deployment does
 * not have (`unknown-key`: a rotation without the previous key), or it does not open with its
 * binding (`unreadable`: altered, or moved from another row). Neither is ever a crash.
 */
export type Opened =
  | { ok: true; value: string; resealed?: string }
  | { ok: false; reason: "unknown-key" | "unreadable" };

/** A missing or too short sealing secret. */
export class SealingKeyError extends Error {
  override name = "SealingKeyError";
}

/** The least length of a sealing secret: 32 characters (`openssl rand -hex 32` gives 64). */
export const MIN_SECRET_CHARS = 32;
const FORMAT = "s1";
const SALT = new TextEncoder().encode("edge-code-mcp sealing v1");
const IV_BYTES = 12;

interface KeyOf {
  /** 16 hex digits derived from the secret (not reversible), stored with each ciphertext */
  id: string;
  base: CryptoKey;
  byPurpose: Map<SealPurpose, Promise<CryptoKey>>;
}

/**
 * AES-256-GCM sealing under a secret (docs/security.md "Connections"). Keys are derived from the
 * secret with HKDF-SHA-256, one per purpose; the key id (also derived) is stored with each
 * ciphertext: `s1.<key id>.<iv>.<ciphertext>` (base64url). Rotation: the new secret is `current`,
 * the old one `previous`; values sealed under `previous` still open and come back `resealed`.
 */
export class Sealer {
  private constructor(
    private readonly current: KeyOf,
    private readonly previous: KeyOf | undefined,
  ) {}

  /** `name` names the secret in errors (e.g. `CONNECTIONS_KEY`). */
  static async from(
    name: string,
    current: string | undefined,
    previous?: string | undefined,
  ): Promise<Sealer> {
    if (!current) {
      throw new SealingKeyError(`${name} is not set (a secret of at least ${MIN_SECRET_CHARS} characters)`);
    }
    for (const [which, secret] of [
      [name, current],
      [`${name}_PREVIOUS`, previous],
    ] as const) {
      if (secret !== undefined && secret !== "" && secret.length < MIN_SECRET_CHARS) {
        throw new SealingKeyError(
          `${which} is ${secret.length} characters; it needs at least ${MIN_SECRET_CHARS}`,
        );
      }
    }
    const older = previous && previous !== current ? await keyOf(previous) : undefined;
    return new Sealer(await keyOf(current), older);
  }

  /** The id of the key new values are sealed under. */
  get keyId(): string {
    return this.current.id;
  }

  async seal(purpose: SealPurpose, binding: SealBinding, plaintext: string): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const sealed = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: additionalData(purpose, binding) },
      await aesKey(this.current, purpose),
      new TextEncoder().encode(plaintext),
    );
    return [FORMAT, this.current.id, base64url(iv), base64url(sealed)].join(".");
  }

  async open(purpose: SealPurpose, binding: SealBinding, sealed: string): Promise<Opened> {
    const [format, id, iv, body, ...rest] = sealed.split(".");
    if (format !== FORMAT || iv === undefined || body === undefined || rest.length > 0) {
      return { ok: false, reason: "unreadable" };
    }
    const key = id === this.current.id ? this.current : id === this.previous?.id ? this.previous : undefined;
    if (!key) return { ok: false, reason: "unknown-key" };
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: fromBase64url(iv), additionalData: additionalData(purpose, binding) },
        await aesKey(key, purpose),
        fromBase64url(body),
      );
    } catch {
      return { ok: false, reason: "unreadable" };
    }
    const value = new TextDecoder().decode(plain);
    if (key === this.current) return { ok: true, value };
    return { ok: true, value, resealed: await this.seal(purpose, binding, value) };
  }
}

async function keyOf(secret: string): Promise<KeyOf> {
  const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, [
    "deriveBits",
    "deriveKey",
  ]);
  const idBits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: SALT, info: new TextEncoder().encode("key-id") },
    base,
    64,
  );
  return { id: hex(idBits), base, byPurpose: new Map() };
}

function aesKey(key: KeyOf, purpose: SealPurpose): Promise<CryptoKey> {
  let derived = key.byPurpose.get(purpose);
  if (!derived) {
    derived = crypto.subtle.deriveKey(
      { name: "HKDF", hash: "SHA-256", salt: SALT, info: new TextEncoder().encode(`aes-gcm:${purpose}`) },
      key.base,
      { name: "AES-GCM", length: 256 },
      false,
      ["encrypt", "decrypt"],
    );
    key.byPurpose.set(purpose, derived);
  }
  return derived;
}

function additionalData(purpose: SealPurpose, { team, user, subject }: SealBinding): Uint8Array {
  return new TextEncoder().encode(JSON.stringify([FORMAT, purpose, team, user, subject]));
}
