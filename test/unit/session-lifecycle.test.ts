// The session object's info, team and lifetime rules (close, TTL), and its PII vault.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SessionCall } from "../../shared/contract/session";
import {
  bytes,
  failure,
  info,
  openSession,
  QUOTA,
  record,
  stubFor,
  userTables,
  value,
} from "../helpers/session-storage";

describe("session", () => {
  it("reports its numbers in session.info", async () => {
    const createdAt = Date.now() - 5_000;
    const { id, stub } = await openSession({ createdAt, lastSeenAt: createdAt + 1_000 });
    await value(stub, { op: "state.set", key: "ab", json: "123" });
    await value(stub, { op: "workspace.write", path: "x", data: new Uint8Array(100) });
    await value(stub, { op: "workspace.write", path: "y", data: new Uint8Array(20) });
    expect(await info(stub, { quotaBytes: 5_000, maxFiles: 3 })).toEqual({
      id,
      createdAt: new Date(createdAt).toISOString(),
      lastSeenAt: new Date(createdAt + 1_000).toISOString(),
      bytesUsed: 5 + 120,
      quotaBytes: 5_000,
      files: 2,
    });
  });

  it("answers SessionNotFoundError to another team and writes nothing", async () => {
    const { stub } = await openSession();
    const error = await failure(stub, { op: "state.set", key: "k", json: "1" }, QUOTA, "other");
    expect(error.name).toBe("SessionNotFoundError");
    expect((await failure(stub, { op: "session.info" }, QUOTA, "other")).name).toBe("SessionNotFoundError");
    expect(await stub.tokenize("other", [{ kind: "EMAIL", key: "a@b.c", value: "a@b.c" }])).toBeNull();
    expect(await stub.restore("other", ["[EMAIL_1]"])).toBeNull();
    expect(await userTables(stub)).toEqual([]);
    expect(await value(stub, { op: "state.get", key: "k" })).toBeUndefined();
    expect(await stub.restore("default", ["[EMAIL_1]"])).toEqual([null]);
  });

  it("answers SessionNotFoundError for a session never opened and creates nothing", async () => {
    const stub = stubFor("storage-never-opened");
    expect((await failure(stub, { op: "workspace.write", path: "a", data: bytes("x") })).name).toBe(
      "SessionNotFoundError",
    );
    expect(await stub.tokenize("default", [{ kind: "IP", key: "1.2.3.4", value: "1.2.3.4" }])).toBeNull();
    expect(await userTables(stub)).toEqual([]);
  });

  it("removes everything on close(); later calls find no session and resurrect nothing", async () => {
    const { id, stub } = await openSession();
    await value(stub, { op: "workspace.write", path: "keep/me.txt", data: bytes("secret") });
    await value(stub, { op: "state.set", key: "k", json: "1" });
    expect(await stub.tokenize("default", [{ kind: "EMAIL", key: "a@b.c", value: "a@b.c" }])).toEqual([
      "[EMAIL_1]",
    ]);
    expect(await userTables(stub)).not.toEqual([]);

    expect(await stub.close()).toBe(true);
    expect(await userTables(stub)).toEqual([]);
    const error = await failure(stub, { op: "workspace.write", path: "keep/me.txt", data: bytes("again") });
    expect(error.name).toBe("SessionNotFoundError");
    expect((await failure(stub, { op: "workspace.read", path: "keep/me.txt" })).name).toBe(
      "SessionNotFoundError",
    );
    expect(await stub.restore("default", ["[EMAIL_1]"])).toBeNull();
    expect(await userTables(stub)).toEqual([]);

    await stub.open(record(id));
    expect(await value(stub, { op: "workspace.list" })).toEqual([]);
    expect((await failure(stub, { op: "workspace.read", path: "keep/me.txt" })).name).toBe("NotFoundError");
    expect(await value(stub, { op: "state.get", key: "k" })).toBeUndefined();
    expect(await info(stub)).toMatchObject({ bytesUsed: 0, files: 0 });
    expect(await stub.restore("default", ["[EMAIL_1]"])).toEqual([null]);
    expect(await stub.tokenize("default", [{ kind: "EMAIL", key: "x@y.z", value: "x@y.z" }])).toEqual([
      "[EMAIL_1]",
    ]);
  });

  it("wipes files and state when an expired session's alarm fires", async () => {
    const { id, stub } = await openSession();
    await value(stub, { op: "workspace.write", path: "f", data: bytes("data") });
    await value(stub, { op: "state.set", key: "k", json: "1" });
    await runInDurableObject(stub, async (_instance, state) => {
      await state.storage.put("session", record(id, { lastSeenAt: Date.now() - 120_000 }));
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await userTables(stub)).toEqual([]);
    expect((await failure(stub, { op: "state.get", key: "k" })).name).toBe("SessionNotFoundError");

    await stub.open(record(id));
    expect(await value(stub, { op: "workspace.list" })).toEqual([]);
    expect(await value(stub, { op: "state.get", key: "k" })).toBeUndefined();
    expect((await info(stub)).bytesUsed).toBe(0);
  });

  it("treats a call on a session idle past its TTL as not found, and wipes it", async () => {
    const { id, stub } = await openSession();
    await value(stub, { op: "workspace.write", path: "f", data: bytes("data") });
    await runInDurableObject(stub, async (_instance, state) => {
      await state.storage.put("session", record(id, { lastSeenAt: Date.now() - 120_000 }));
    });
    expect((await failure(stub, { op: "workspace.read", path: "f" })).name).toBe("SessionNotFoundError");
    expect(await userTables(stub)).toEqual([]);
    expect(await stub.touch()).toBeNull();
  });

  it("answers TypeError for a malformed call", async () => {
    const { stub } = await openSession();
    const error = await failure(stub, { op: "state.set", key: "", json: "1" });
    expect(error.name).toBe("TypeError");
    expect((await failure(stub, { op: "nope" } as unknown as SessionCall)).name).toBe("TypeError");
  });
});

describe("PII vault", () => {
  it("gives one token per (kind, key), numbered per kind, and restores the first-seen value", async () => {
    const { stub } = await openSession();
    const first = await stub.tokenize("default", [
      { kind: "EMAIL", key: "ann@example.com", value: "Ann@Example.com" },
      { kind: "PHONE", key: "+15551234", value: "555-1234" },
      { kind: "EMAIL", key: "bob@example.com", value: "bob@example.com" },
      { kind: "EMAIL", key: "ann@example.com", value: "ann@example.com" },
    ]);
    expect(first).toEqual(["[EMAIL_1]", "[PHONE_1]", "[EMAIL_2]", "[EMAIL_1]"]);
    const second = await stub.tokenize("default", [
      { kind: "EMAIL", key: "bob@example.com", value: "BOB@example.com" },
      { kind: "EMAIL", key: "cy@example.com", value: "cy@example.com" },
      { kind: "PHONE", key: "ann@example.com", value: "ann@example.com" },
    ]);
    expect(second).toEqual(["[EMAIL_2]", "[EMAIL_3]", "[PHONE_2]"]);
    expect(
      await stub.restore("default", [
        "[EMAIL_1]",
        "[EMAIL_2]",
        "[PHONE_1]",
        "[EMAIL_9]",
        "[CARD_1]",
        "EMAIL_1",
        "[email_1]",
      ]),
    ).toEqual(["Ann@Example.com", "bob@example.com", "555-1234", null, null, null, null]);
  });

  it("numbers consistently under 20 concurrent tokenize calls with overlapping values", async () => {
    const { stub } = await openSession();
    const emails = Array.from({ length: 40 }, (_, i) => `user${i}@example.com`);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, c) =>
        stub.tokenize(
          "default",
          emails.slice(c, c + 21).map((key) => ({ kind: "EMAIL" as const, key, value: key })),
        ),
      ),
    );
    const tokenOf = new Map<string, string>();
    results.forEach((tokens, c) => {
      expect(tokens).toHaveLength(21);
      tokens?.forEach((token, i) => {
        const key = emails[c + i]!;
        expect(tokenOf.get(key) ?? token).toBe(token);
        tokenOf.set(key, token);
      });
    });
    const numbers = [...tokenOf.values()]
      .map((t) => Number(/^\[EMAIL_(\d+)\]$/.exec(t)?.[1]))
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const keys = [...tokenOf.keys()];
    expect(
      await stub.restore(
        "default",
        keys.map((k) => tokenOf.get(k)!),
      ),
    ).toEqual(keys);
  });

  it("stops numbering at 50,000 entries: new values get a bare [KIND]", { timeout: 90_000 }, async () => {
    // An hour to live: on a slow machine the first call alone outlasted the helper's 60 s.
    const { stub } = await openSession({ ttlSeconds: 3_600 });
    const items = Array.from({ length: 50_001 }, (_, i) => ({
      kind: "IP" as const,
      key: `k${i}`,
      value: `v${i}`,
    }));
    const tokens = await stub.tokenize("default", items);
    expect(tokens?.[49_999]).toBe("[IP_50000]");
    expect(tokens?.[50_000]).toBe("[IP]");
    expect(await stub.tokenize("default", [items[0]!, { kind: "EMAIL", key: "new", value: "new" }])).toEqual([
      "[IP_1]",
      "[EMAIL]",
    ]);
    expect(await stub.restore("default", ["[IP_50000]", "[IP]", "[IP_50001]"])).toEqual([
      "v49999",
      null,
      null,
    ]);
  });

  it("answers null for tokens past the first 10,000", async () => {
    const { stub } = await openSession();
    await stub.tokenize("default", [{ kind: "SSN", key: "1", value: "123-45-6789" }]);
    const restored = await stub.restore(
      "default",
      Array.from({ length: 10_001 }, () => "[SSN_1]"),
    );
    expect(restored?.[9_999]).toBe("123-45-6789");
    expect(restored?.[10_000]).toBeNull();
  });
});
