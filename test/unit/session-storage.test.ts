// The session object's state and workspace storage (chunks, quota, atomic writes, paths).
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  type FileInfo,
  SESSION_LIMITS,
  type SessionCall,
  type SessionQuota,
} from "../../shared/contract/session";
import {
  bytes,
  failure,
  firstDifference,
  info,
  openSession,
  randomBytes,
  text,
  value,
} from "../helpers/session-storage";

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
    expect(first?.modifiedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Math.abs(Date.parse(first?.modifiedAt ?? "") - Date.now())).toBeLessThan(60_000);
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
