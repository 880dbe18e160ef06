import { describe, expect, it } from "vitest";
import { interpreterMaximumBytes } from "../../shared/contract/engine";
import { INITIAL_BYTES, memoryKeeper } from "../../workers/sandbox/quickjs/memories.js";

const LIMIT = 8 * 1024 * 1024;

// The quickjs engine hands an interpreter's linear memory to the next one only zeroed, never grown
// (workers/sandbox/quickjs/memories.js): what the next execution starts with is what a new memory holds.
const nonZero = (memory: WebAssembly.Memory) => new Uint8Array(memory.buffer).findIndex((b) => b !== 0);

describe("the quickjs engine's linear memories", () => {
  it("gives a memory back zeroed, and only to one taker", () => {
    const keeper = memoryKeeper(1);
    const first = keeper.take(LIMIT);
    expect(first.buffer.byteLength).toBe(INITIAL_BYTES);
    const secret = new TextEncoder().encode("execution A's secret");
    new Uint8Array(first.buffer).set(secret, 4_096);
    new Uint8Array(first.buffer).set(secret, INITIAL_BYTES - secret.length);
    keeper.giveBack(first);
    expect(keeper.held).toBe(1);
    const next = keeper.take(LIMIT);
    expect(next).toBe(first);
    expect(nonZero(next)).toBe(-1);
    expect(keeper.held).toBe(0);
    expect(keeper.take(LIMIT)).not.toBe(first);
  });

  it("owns at most `keep` memories; one that grew is dropped and replaced", () => {
    const keeper = memoryKeeper(1);
    const [a, b] = [keeper.take(LIMIT), keeper.take(LIMIT)];
    keeper.giveBack(a);
    keeper.giveBack(b);
    expect(keeper.held).toBe(1);
    expect(keeper.take(LIMIT)).toBe(a);
    a.grow(1);
    keeper.giveBack(a);
    expect(keeper.held).toBe(0);
    const c = keeper.take(LIMIT);
    expect(c).not.toBe(a);
    keeper.giveBack(c);
    expect(keeper.take(LIMIT)).toBe(c);
  });

  it("hands out a memory only to an interpreter of the same limit", () => {
    const keeper = memoryKeeper(1);
    const a = keeper.take(LIMIT);
    keeper.giveBack(a);
    expect(keeper.take(2 * LIMIT)).not.toBe(a);
    expect(keeper.take(LIMIT)).toBe(a);
  });

  // QuickJS's own limit does not bound its allocator (memories.js): the memory's maximum does.
  it("refuses to grow a memory past the execution's limit beyond a fresh interpreter's, and says so", () => {
    const memory = memoryKeeper(1).take(LIMIT);
    const pages = (interpreterMaximumBytes(LIMIT) - INITIAL_BYTES) / 65_536;
    expect(pages).toBe(LIMIT / 65_536);
    expect(() => memory.grow(pages + 1)).toThrow(RangeError);
    expect(memory.full).toBe(true);
    memory.grow(pages);
    expect(memory.full).toBe(false);
    expect(memory.buffer.byteLength).toBe(interpreterMaximumBytes(LIMIT));
    expect(() => memory.grow(1)).toThrow(RangeError);
  });
});
