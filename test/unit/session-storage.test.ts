import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SessionRecord } from "../../durable-objects/session/record";
import {
  type FileInfo,
  type HistoryEntry,
  SESSION_LIMITS,
  type SessionAnswer,
  type SessionCall,
  type SessionInfo,
  type SessionQuota,
} from "../../shared/contract/session";

const QUOTA: SessionQuota = { quotaBytes: 64 * 1024 * 1024, maxFiles: 100 };
let counter = 0;

const record = (id: string, over: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  createdAt: Date.now(),
  lastSeenAt: Date.now(),
  ttlSeconds: 60,
  team: "default",
  ...over,
});

const stubFor = (id: string) => env.SESSIONS.get(env.SESSIONS.idFromName(id));

async function openSession(over: Partial<SessionRecord> = {}) {
  const id = `storage-${++counter}`;
  const stub = stubFor(id);
  await stub.open(record(id, over));
  return { id, stub };
}

type Stub = ReturnType<typeof stubFor>;

async function run(stub: Stub, call: SessionCall, quota = QUOTA, team = "default"): Promise<SessionAnswer> {
  return (await stub.call(team, call, quota)) as SessionAnswer;
}

async function value<T>(stub: Stub, call: SessionCall, quota = QUOTA): Promise<T> {
  const answer = await run(stub, call, quota);
  if (!answer.ok) throw new Error(`${call.op} failed: ${answer.error.name}: ${answer.error.message}`);
  return answer.value as T;
}

async function failure(stub: Stub, call: SessionCall, quota = QUOTA, team = "default") {
  const answer = await run(stub, call, quota, team);
  if (answer.ok) throw new Error(`${call.op} succeeded: ${JSON.stringify(answer.value)}`);
  return answer.error;
}

const bytes = (text: string) => new Uint8Array(new TextEncoder().encode(text));
const text = (data: Uint8Array) => new TextDecoder().decode(data);
const info = (stub: Stub, quota = QUOTA) => value<SessionInfo>(stub, { op: "session.info" }, quota);

/** SQL tables of the object other than the runtime's own (`_cf_*`). */
async function userTables(stub: Stub): Promise<string[]> {
  return runInDurableObject(stub, (_instance, state) =>
    state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .toArray()
      .map((r) => r.name)
      .filter((name) => !name.startsWith("_cf_") && !name.startsWith("sqlite_")),
  );
}

function randomBytes(size: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(size);
  for (let at = 0; at < size; at += 65_536) crypto.getRandomValues(data.subarray(at, at + 65_536));
  return data;
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.byteLength !== b.byteLength) return Math.min(a.byteLength, b.byteLength);
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return i;
  return -1;
}

describe("state", () => {
  it("gets, sets, deletes and counts key + JSON bytes", async () => {
    const { stub } = await openSession();
    expect(await value(stub, { op: "state.get", key: "k" })).toBeUndefined();
    expect(await value(stub, { op: "state.set", key: "k", json: '"é"' })).toBeNull();
    expect(await value(stub, { op: "state.get", key: "k" })).toBe('"é"');
    expect((await info(stub)).bytesUsed).toBe(1 + 4);
    await value(stub, { op: "state.set", key: "k", json: "[1,2,3]" });
    expect(await value(stub, { op: "state.get", key: "k" })).toBe("[1,2,3]");
    expect((await info(stub)).bytesUsed).toBe(1 + 7);
    expect(await value(stub, { op: "state.delete", key: "k" })).toBe(true);
    expect(await value(stub, { op: "state.delete", key: "k" })).toBe(false);
    expect(await value(stub, { op: "state.get", key: "k" })).toBeUndefined();
    expect((await info(stub)).bytesUsed).toBe(0);
  });

  it("lists keys sorted, matching a prefix literally (% _ and NUL are plain characters)", async () => {
    const { stub } = await openSession();
    const keys = ["b", "a%c", "ab", "a_b", "aXb", "a%b", "n\u0000x", "nx", "100%"];
    for (const key of keys) await value(stub, { op: "state.set", key, json: "1" });
    expect(await value(stub, { op: "state.keys" })).toEqual([...keys].sort());
    expect(await value(stub, { op: "state.keys", prefix: "a%" })).toEqual(["a%b", "a%c"]);
    expect(await value(stub, { op: "state.keys", prefix: "a_" })).toEqual(["a_b"]);
    expect(await value(stub, { op: "state.keys", prefix: "a" })).toEqual(["a%b", "a%c", "aXb", "a_b", "ab"]);
    expect(await value(stub, { op: "state.keys", prefix: "n\u0000" })).toEqual(["n\u0000x"]);
    expect(await value(stub, { op: "state.keys", prefix: "%" })).toEqual([]);
    expect(await value(stub, { op: "state.keys", prefix: "100%" })).toEqual(["100%"]);
  });

  it("refuses a value over the quota and keeps the old one", async () => {
    const { stub } = await openSession();
    const small: SessionQuota = { quotaBytes: 1000, maxFiles: 10 };
    await value(stub, { op: "state.set", key: "k", json: '"old"' }, small);
    const error = await failure(
      stub,
      { op: "state.set", key: "k", json: JSON.stringify("x".repeat(1000)) },
      small,
    );
    expect(error.name).toBe("QuotaError");
    expect(error.message).toContain("SESSION_QUOTA_BYTES");
    expect(error.message).toContain("1000");
    expect(await value(stub, { op: "state.get", key: "k" }, small)).toBe('"old"');
  });
});

describe("workspace", () => {
  it("round-trips a random binary file of exactly maxFileBytes (10 MiB) byte for byte", async () => {
    const { stub } = await openSession();
    const data = randomBytes(SESSION_LIMITS.maxFileBytes);
    const written = await value<FileInfo>(stub, { op: "workspace.write", path: "big/blob.bin", data });
    expect(written).toMatchObject({ path: "big/blob.bin", size: SESSION_LIMITS.maxFileBytes });
    const read = await value<Uint8Array>(stub, { op: "workspace.read", path: "big/blob.bin" });
    expect(read).toBeInstanceOf(Uint8Array);
    expect(firstDifference(read, data)).toBe(-1);
    expect((await info(stub)).bytesUsed).toBe(SESSION_LIMITS.maxFileBytes);

    const tooBig = await failure(stub, {
      op: "workspace.write",
      path: "big/blob.bin",
      data: new Uint8Array(SESSION_LIMITS.maxFileBytes + 1),
    });
    expect(tooBig.name).toBe("TypeError");
    expect(
      firstDifference(await value<Uint8Array>(stub, { op: "workspace.read", path: "big/blob.bin" }), data),
    ).toBe(-1);
  });

  it("stores empty files and files that end on a chunk boundary", async () => {
    const { stub } = await openSession();
    for (const size of [0, 1, 1024 * 1024, 1024 * 1024 + 1, 2 * 1024 * 1024]) {
      const data = randomBytes(size);
      await value(stub, { op: "workspace.write", path: `f${size}`, data });
      const read = await value<Uint8Array>(stub, { op: "workspace.read", path: `f${size}` });
      expect(firstDifference(read, data)).toBe(-1);
    }
  });

  it("refuses a write over the byte quota and keeps the old content", async () => {
    const { stub } = await openSession();
    const small: SessionQuota = { quotaBytes: 1000, maxFiles: 10 };
    await value(stub, { op: "workspace.write", path: "a.txt", data: bytes("a".repeat(600)) }, small);
    const error = await failure(
      stub,
      { op: "workspace.write", path: "a.txt", data: new Uint8Array(1200) },
      small,
    );
    expect(error.name).toBe("QuotaError");
    expect(error.message).toContain("SESSION_QUOTA_BYTES");
    expect(text(await value(stub, { op: "workspace.read", path: "a.txt" }, small))).toBe("a".repeat(600));
    expect(
      (await failure(stub, { op: "workspace.write", path: "b.txt", data: new Uint8Array(401) }, small)).name,
    ).toBe("QuotaError");
    await value(stub, { op: "workspace.write", path: "b.txt", data: new Uint8Array(400) }, small);
    expect(await info(stub, small)).toMatchObject({ bytesUsed: 1000, files: 2, quotaBytes: 1000 });
    await value(stub, { op: "workspace.write", path: "a.txt", data: new Uint8Array(100) }, small);
    expect((await info(stub, small)).bytesUsed).toBe(500);
  });

  it("counts state against the same byte quota", async () => {
    const { stub } = await openSession();
    const small: SessionQuota = { quotaBytes: 1000, maxFiles: 10 };
    await value(stub, { op: "workspace.write", path: "a", data: new Uint8Array(990) }, small);
    expect((await failure(stub, { op: "state.set", key: "key", json: '"1234567"' }, small)).name).toBe(
      "QuotaError",
    );
    await value(stub, { op: "state.set", key: "key", json: '"12345"' }, small);
    expect(
      (await failure(stub, { op: "workspace.write", path: "b", data: new Uint8Array(1) }, small)).name,
    ).toBe("QuotaError");
  });

  it("caps the number of files", async () => {
    const { stub } = await openSession();
    const two: SessionQuota = { quotaBytes: 1_000_000, maxFiles: 2 };
    await value(stub, { op: "workspace.write", path: "a", data: bytes("1") }, two);
    await value(stub, { op: "workspace.write", path: "b", data: bytes("2") }, two);
    const error = await failure(stub, { op: "workspace.write", path: "c", data: bytes("3") }, two);
    expect(error.name).toBe("QuotaError");
    expect(error.message).toContain("SESSION_MAX_FILES");
    await value(stub, { op: "workspace.write", path: "a", data: bytes("one") }, two);
    expect(await value<FileInfo[]>(stub, { op: "workspace.list" }, two)).toHaveLength(2);
  });

  it("answers InvalidPathError naming the path for every kind of bad path", async () => {
    const { stub } = await openSession();
    const bad = ["", "/a", "a/../b", "a//b", "a/", "a\\b", "a\u0000b", "./a", "a/.", "\ud800x"];
    for (const path of bad) {
      const calls: SessionCall[] = [
        { op: "workspace.write", path, data: bytes("x") },
        { op: "workspace.read", path },
        { op: "workspace.delete", path },
      ];
      for (const call of calls) {
        const error = await failure(stub, call);
        expect(error.name, `${JSON.stringify(path)} ${call.op}`).toBe("InvalidPathError");
        expect(error.path).toBe(path);
        expect(error.message).toContain(JSON.stringify(path));
      }
    }
    const long = "x/".repeat(1500);
    const error = await failure(stub, { op: "workspace.write", path: long, data: bytes("x") });
    expect(error.name).toBe("InvalidPathError");
    expect(error.path).toBe(long.slice(0, 1024));
    expect(await value(stub, { op: "workspace.list" })).toEqual([]);
  });

  it("answers NotFoundError for a missing file", async () => {
    const { stub } = await openSession();
    const error = await failure(stub, { op: "workspace.read", path: "nope/x.txt" });
    expect(error).toMatchObject({ name: "NotFoundError", path: "nope/x.txt" });
    expect(error.message).toContain("nope/x.txt");
  });

  it("overwrites: size and bytesUsed follow the new content", async () => {
    const { stub } = await openSession();
    await value(stub, { op: "workspace.write", path: "f", data: new Uint8Array(3_000_000).fill(7) });
    expect(await info(stub)).toMatchObject({ bytesUsed: 3_000_000, files: 1 });
    const written = await value<FileInfo>(stub, { op: "workspace.write", path: "f", data: bytes("short") });
    expect(written.size).toBe(5);
    expect(text(await value(stub, { op: "workspace.read", path: "f" }))).toBe("short");
    expect(await info(stub)).toMatchObject({ bytesUsed: 5, files: 1 });
    expect(await value(stub, { op: "workspace.list" })).toEqual([written]);
  });

  it("lists files sorted by path, optionally under a prefix", async () => {
    const { stub } = await openSession();
    for (const path of ["b/2", "a/1", "b/1", "ab", "a_1", "a%1"]) {
      await value(stub, { op: "workspace.write", path, data: bytes(path) });
    }
    const paths = async (prefix?: string) =>
      (
        await value<FileInfo[]>(stub, { op: "workspace.list", ...(prefix === undefined ? {} : { prefix }) })
      ).map((f) => f.path);
    expect(await paths()).toEqual(["a%1", "a/1", "a_1", "ab", "b/1", "b/2"]);
    expect(await paths("b/")).toEqual(["b/1", "b/2"]);
    expect(await paths("a")).toEqual(["a%1", "a/1", "a_1", "ab"]);
    expect(await paths("a_")).toEqual(["a_1"]);
    expect(await paths("a%")).toEqual(["a%1"]);
    expect(await paths("c")).toEqual([]);
    const [first] = await value<FileInfo[]>(stub, { op: "workspace.list", prefix: "b/2" });
    expect(first).toMatchObject({ path: "b/2", size: 3 });
    expect(first?.modifiedAt).toBeGreaterThan(0);
  });

  it("deletes files", async () => {
    const { stub } = await openSession();
    await value(stub, { op: "workspace.write", path: "a", data: new Uint8Array(2_500_000) });
    await value(stub, { op: "workspace.write", path: "b", data: new Uint8Array(10) });
    expect(await value(stub, { op: "workspace.delete", path: "a" })).toBe(true);
    expect(await value(stub, { op: "workspace.delete", path: "a" })).toBe(false);
    expect((await failure(stub, { op: "workspace.read", path: "a" })).name).toBe("NotFoundError");
    expect(await info(stub)).toMatchObject({ bytesUsed: 10, files: 1 });
    const chunks = await runInDurableObject(stub, (_i, state) =>
      state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM chunks").one(),
    );
    expect(chunks.n).toBe(1);
  });
});

describe("session", () => {
  it("reports its numbers in session.info", async () => {
    const createdAt = Date.now() - 5_000;
    const { id, stub } = await openSession({ createdAt, lastSeenAt: createdAt + 1_000 });
    await value(stub, { op: "state.set", key: "ab", json: "123" });
    await value(stub, { op: "workspace.write", path: "x", data: new Uint8Array(100) });
    await value(stub, { op: "workspace.write", path: "y", data: new Uint8Array(20) });
    expect(await info(stub, { quotaBytes: 5_000, maxFiles: 3 })).toEqual({
      id,
      createdAt,
      lastSeenAt: createdAt + 1_000,
      bytesUsed: 5 + 120,
      quotaBytes: 5_000,
      files: 2,
    });
  });

  it("keeps the newest 100 executions, newest first", async () => {
    const { stub } = await openSession();
    for (let i = 0; i < 105; i++) {
      const entry: HistoryEntry = { at: 1_000 + i, durationMs: i, toolCalls: i % 3, resultBytes: 10 * i };
      expect(
        await stub.recordExecution("default", i === 104 ? { ...entry, error: "TimeoutError" } : entry),
      ).toBe(true);
    }
    const history = await value<HistoryEntry[]>(stub, { op: "session.history" });
    expect(history).toHaveLength(SESSION_LIMITS.maxHistory);
    expect(history[0]).toEqual({
      at: 1_104,
      durationMs: 104,
      toolCalls: 2,
      error: "TimeoutError",
      resultBytes: 1_040,
    });
    expect(history[1]).toEqual({ at: 1_103, durationMs: 103, toolCalls: 1, resultBytes: 1_030 });
    expect(history.at(-1)?.at).toBe(1_005);
    const rows = await runInDurableObject(stub, (_i, state) =>
      state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM history").one(),
    );
    expect(rows.n).toBe(100);
  });

  it("answers SessionNotFoundError to another team and writes nothing", async () => {
    const { stub } = await openSession();
    const error = await failure(stub, { op: "state.set", key: "k", json: "1" }, QUOTA, "other");
    expect(error.name).toBe("SessionNotFoundError");
    expect((await failure(stub, { op: "session.info" }, QUOTA, "other")).name).toBe("SessionNotFoundError");
    expect(await stub.recordExecution("other", { at: 1, durationMs: 1, toolCalls: 0, resultBytes: 0 })).toBe(
      false,
    );
    expect(await stub.tokenize("other", [{ kind: "EMAIL", key: "a@b.c", value: "a@b.c" }])).toBeNull();
    expect(await stub.restore("other", ["[EMAIL_1]"])).toBeNull();
    expect(await userTables(stub)).toEqual([]);
    expect(await value(stub, { op: "state.get", key: "k" })).toBeUndefined();
    expect(await value(stub, { op: "session.history" })).toEqual([]);
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
    await stub.recordExecution("default", { at: 1, durationMs: 1, toolCalls: 0, resultBytes: 0 });
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
    expect(
      await stub.recordExecution("default", { at: 2, durationMs: 1, toolCalls: 0, resultBytes: 0 }),
    ).toBe(false);
    expect(await stub.restore("default", ["[EMAIL_1]"])).toBeNull();
    expect(await userTables(stub)).toEqual([]);

    await stub.open(record(id));
    expect(await value(stub, { op: "workspace.list" })).toEqual([]);
    expect((await failure(stub, { op: "workspace.read", path: "keep/me.txt" })).name).toBe("NotFoundError");
    expect(await value(stub, { op: "state.get", key: "k" })).toBeUndefined();
    expect(await value(stub, { op: "session.history" })).toEqual([]);
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

  it("stops numbering at 50,000 entries: new values get a bare [KIND]", async () => {
    const { stub } = await openSession();
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
