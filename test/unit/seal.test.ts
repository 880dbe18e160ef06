import { describe, expect, it } from "vitest";
import { Sealer, SealingKeyError } from "../../shared/seal";

const OLD = "old-secret-0123456789abcdef0123456789abcdef";
const NEW = "new-secret-0123456789abcdef0123456789abcdef";
const OTHER = "other-secret-0123456789abcdef0123456789abcdef";
const here = { team: "acme", user: "alice@example.com", subject: "github" };
const TOKEN = "gho_access-token-that-must-never-be-seen";

describe("sealing", () => {
  it("opens what it sealed, and the ciphertext shows nothing of the plaintext", async () => {
    const sealer = await Sealer.from("CONNECTIONS_KEY", NEW);
    const a = await sealer.seal("tokens", here, TOKEN);
    const b = await sealer.seal("tokens", here, TOKEN);
    expect(a).not.toBe(b);
    expect(a).not.toContain("access-token");
    expect(a.startsWith(`s1.${sealer.keyId}.`)).toBe(true);
    expect(await sealer.open("tokens", here, a)).toEqual({ ok: true, value: TOKEN });
  });

  it("does not open under another team, user, server or purpose, nor when altered", async () => {
    const sealer = await Sealer.from("CONNECTIONS_KEY", NEW);
    const sealed = await sealer.seal("tokens", here, TOKEN);
    const unreadable = { ok: false, reason: "unreadable" };
    expect(await sealer.open("tokens", { ...here, team: "other" }, sealed)).toEqual(unreadable);
    expect(await sealer.open("tokens", { ...here, user: "bob@example.com" }, sealed)).toEqual(unreadable);
    expect(await sealer.open("tokens", { ...here, subject: "linear" }, sealed)).toEqual(unreadable);
    expect(await sealer.open("user-secret", here, sealed)).toEqual(unreadable);
    const flipped = sealed.slice(0, -2) + (sealed.endsWith("A") ? "B" : "A") + sealed.slice(-1);
    expect(await sealer.open("tokens", here, flipped)).toEqual(unreadable);
    expect(await sealer.open("tokens", here, "not sealed at all")).toEqual(unreadable);
  });

  it("rotates: the previous key's values open and come back re-sealed under the new key", async () => {
    const before = await Sealer.from("CONNECTIONS_KEY", OLD);
    const sealed = await before.seal("tokens", here, TOKEN);
    const rotated = await Sealer.from("CONNECTIONS_KEY", NEW, OLD);
    const opened = await rotated.open("tokens", here, sealed);
    expect(opened).toMatchObject({ ok: true, value: TOKEN });
    const resealed = opened.ok ? opened.resealed : undefined;
    expect(resealed?.startsWith(`s1.${rotated.keyId}.`)).toBe(true);
    // Once re-sealed, the old key is no longer needed.
    const after = await Sealer.from("CONNECTIONS_KEY", NEW);
    expect(await after.open("tokens", here, resealed ?? "")).toEqual({ ok: true, value: TOKEN });
  });

  it("reports a value sealed under a key it does not have as unknown-key, not a crash", async () => {
    const sealed = await (await Sealer.from("CONNECTIONS_KEY", OTHER)).seal("tokens", here, TOKEN);
    const sealer = await Sealer.from("CONNECTIONS_KEY", NEW, OLD);
    expect(await sealer.open("tokens", here, sealed)).toEqual({ ok: false, reason: "unknown-key" });
  });

  it("refuses a missing or short secret with an error naming it", async () => {
    await expect(Sealer.from("CONNECTIONS_KEY", undefined)).rejects.toThrow(SealingKeyError);
    await expect(Sealer.from("CONNECTIONS_KEY", "")).rejects.toThrow(/CONNECTIONS_KEY is not set/);
    await expect(Sealer.from("CONNECTIONS_KEY", "short")).rejects.toThrow(/CONNECTIONS_KEY is 5 characters/);
    await expect(Sealer.from("CONNECTIONS_KEY", NEW, "short")).rejects.toThrow(/CONNECTIONS_KEY_PREVIOUS/);
  });
});
