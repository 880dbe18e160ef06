import { describe, expect, it } from "vitest";
import { INITIAL_BYTES, memoryKeeper } from "../../workers/sandbox/quickjs/memories.js";

// The quickjs engine hands an interpreter's linear memory to the next one only zeroed, never grown
// (workers/sandbox/quickjs/memories.js): what the next execution starts with is what a new memory holds.
const nonZero = (memory: WebAssembly.Memory) => new Uint8Array(memory.buffer).findIndex((b) => b !== 0);

describe("the quickjs engine's linear memories", () => {
  it("gives a memory back zeroed, and only to one taker", () => {
    const keeper = memoryKeeper(1);
    const first = keeper.take();
    expect(first.buffer.byteLength).toBe(INITIAL_BYTES);
    const secret = new TextEncoder().encode("execution A's secret");
    new Uint8Array(first.buffer).set(secret, 4_096);
    new Uint8Array(first.buffer).set(secret, INITIAL_BYTES - secret.length);
    keeper.giveBack(first);
    expect(keeper.held).toBe(1);
    const next = keeper.take();
    expect(next).toBe(first);
    expect(nonZero(next)).toBe(-1);
    expect(keeper.held).toBe(0);
    expect(keeper.take()).not.toBe(first);
  });

  it("owns at most `keep` memories; one that grew is dropped and replaced", () => {
    const keeper = memoryKeeper(1);
    const [a, b] = [keeper.take(), keeper.take()];
    keeper.giveBack(a);
    keeper.giveBack(b);
    expect(keeper.held).toBe(1);
    expect(keeper.take()).toBe(a);
    a.grow(1);
    keeper.giveBack(a);
    expect(keeper.held).toBe(0);
    const c = keeper.take();
    expect(c).not.toBe(a);
    keeper.giveBack(c);
    expect(keeper.take()).toBe(c);
  });
});
