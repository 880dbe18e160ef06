import { describe, expect, it } from "vitest";
import { INITIAL_BYTES, memoryPool } from "../../workers/sandbox/quickjs/memories.js";

// The quickjs engine hands an interpreter's linear memory to the next one only zeroed, never grown
// (workers/sandbox/quickjs/memories.js): what the next execution starts with is what a new memory holds.
const nonZero = (memory: WebAssembly.Memory) => new Uint8Array(memory.buffer).findIndex((b) => b !== 0);

describe("the quickjs engine's linear memories", () => {
  it("gives a memory back zeroed, and only to one taker", () => {
    const pool = memoryPool(1);
    const first = pool.take();
    expect(first.buffer.byteLength).toBe(INITIAL_BYTES);
    const secret = new TextEncoder().encode("execution A's secret");
    new Uint8Array(first.buffer).set(secret, 4_096);
    new Uint8Array(first.buffer).set(secret, INITIAL_BYTES - secret.length);
    pool.giveBack(first);
    expect(pool.held).toBe(1);
    const next = pool.take();
    expect(next).toBe(first);
    expect(nonZero(next)).toBe(-1);
    expect(pool.held).toBe(0);
    expect(pool.take()).not.toBe(first);
  });

  it("owns at most `keep` memories; one that grew is dropped and replaced", () => {
    const pool = memoryPool(1);
    const [a, b] = [pool.take(), pool.take()];
    pool.giveBack(a);
    pool.giveBack(b);
    expect(pool.held).toBe(1);
    expect(pool.take()).toBe(a);
    a.grow(1);
    pool.giveBack(a);
    expect(pool.held).toBe(0);
    const c = pool.take();
    expect(c).not.toBe(a);
    pool.giveBack(c);
    expect(pool.take()).toBe(c);
  });
});
