import { describe, expect, it } from "vitest";
import { interpreterMaximumBytes } from "../../shared/contract/engine";
import { INITIAL_BYTES, imageOf, memoryKeeper } from "../../workers/sandbox/quickjs/memories.js";

const LIMIT = 32 * 1024 * 1024;

// The quickjs engine hands an interpreter's linear memory to the next one only zeroed, and never past
// its maximum (workers/sandbox/quickjs/memories.js): the next execution starts with zeros, as in a new memory.
const nonZero = (memory: WebAssembly.Memory) => new Uint8Array(memory.buffer).findIndex((b) => b !== 0);

describe("the quickjs engine's linear memories", () => {
  it("gives a memory back zeroed, and only to one taker", () => {
    const keeper = memoryKeeper();
    const first = keeper.take(LIMIT);
    expect(first.buffer.byteLength).toBe(INITIAL_BYTES);
    const secret = new TextEncoder().encode("execution A's secret");
    new Uint8Array(first.buffer).set(secret, 4_096);
    new Uint8Array(first.buffer).set(secret, INITIAL_BYTES - secret.length);
    keeper.giveBack(first, 1);
    expect(keeper.held).toBe(1);
    const next = keeper.take(LIMIT);
    expect(next).toBe(first);
    expect(nonZero(next)).toBe(-1);
    expect(keeper.held).toBe(0);
    expect(keeper.take(LIMIT)).not.toBe(first);
  });

  it("owns at most `keep` memories, and hands one that grew out again zeroed", () => {
    const keeper = memoryKeeper();
    const [a, b] = [keeper.take(LIMIT), keeper.take(LIMIT)];
    keeper.giveBack(a, 1);
    keeper.giveBack(b, 1);
    expect(keeper.held).toBe(1);
    expect(keeper.take(LIMIT)).toBe(a);
    a.grow(16);
    new Uint8Array(a.buffer).fill(7, INITIAL_BYTES);
    keeper.giveBack(a, 1);
    expect(keeper.held).toBe(1);
    const c = keeper.take(LIMIT);
    expect(c).toBe(a);
    expect(c.buffer.byteLength).toBe(INITIAL_BYTES + 16 * 65_536);
    expect(nonZero(c)).toBe(-1);
  });

  // The next interpreter starts from the prepared one's image (quickjs/snapshot.js): the memory is
  // that image byte for byte, zeros everywhere else, grown or not.
  it("gives a memory back set to the prepared interpreter's image, zeros elsewhere", () => {
    const keeper = memoryKeeper();
    const memory = keeper.take(LIMIT);
    const pattern = new Uint8Array(10_000).map((_, i) => (i % 251) + 1);
    new Uint8Array(memory.buffer).set(pattern, 100);
    new Uint8Array(memory.buffer).set(pattern, 5_000_000);
    const image = imageOf(memory);
    const expected = new Uint8Array(memory.buffer).slice();
    expect(image.reduce((n, run) => n + run.bytes.length, 0)).toBeLessThan(40_000);
    memory.grow(16);
    new Uint8Array(memory.buffer).fill(7);
    keeper.giveBack(memory, 1, image);
    const next = keeper.take(LIMIT);
    expect(next).toBe(memory);
    const bytes = new Uint8Array(next.buffer);
    expect(bytes.subarray(0, expected.length).findIndex((b, i) => b !== expected[i])).toBe(-1);
    expect(bytes.subarray(expected.length).findIndex((b) => b !== 0)).toBe(-1);
  });

  it("hands out a memory only to an interpreter of the same limit", () => {
    const keeper = memoryKeeper();
    const a = keeper.take(LIMIT);
    keeper.giveBack(a, 1);
    expect(keeper.take(4 * LIMIT)).not.toBe(a);
    expect(keeper.take(LIMIT)).toBe(a);
  });

  // QuickJS's own limit does not bound its allocator (memories.js): the memory's maximum does.
  it("refuses to grow a memory past the execution's limit, and says so", () => {
    const memory = memoryKeeper().take(LIMIT);
    const pages = (interpreterMaximumBytes(LIMIT) - INITIAL_BYTES) / 65_536;
    expect(pages).toBe(LIMIT / 65_536);
    expect(() => memory.grow(pages + 1)).toThrow(RangeError);
    expect(memory.full).toBe(true);
    memory.grow(pages);
    expect(memory.full).toBe(false);
    expect(memory.buffer.byteLength).toBe(INITIAL_BYTES + LIMIT);
    expect(() => memory.grow(1)).toThrow(RangeError);
  });

  // What an interpreter may have written lies below its allocator's break (quickjs/snapshot.js
  // `findBreak`): only that part is set back; above it the memory is zeros still (as it was handed out).
  it("sets back only what lies below the allocator's break, and the whole memory when the break is implausible", () => {
    const keeper = memoryKeeper();
    const memory = keeper.take(LIMIT);
    const breakAt = 1_024;
    const view = new DataView(memory.buffer);
    view.setUint32(breakAt, 6_000_000, true);
    new Uint8Array(memory.buffer).fill(9, 2_000, 3_000);
    const image = imageOf(memory);
    const bytes = () => new Uint8Array(memory.buffer);
    const dirty = (brk: number) => {
      new DataView(memory.buffer).setUint32(breakAt, brk, true);
      bytes().fill(5, 3_000, 7_000_000); // below the break: the execution's; past it: a marker
      keeper.giveBack(memory, 1, image, breakAt);
      expect(keeper.take(LIMIT)).toBe(memory);
      return bytes();
    };
    const within = dirty(7_000_000);
    expect(within.subarray(2_000, 3_000).every((b) => b === 9)).toBe(true);
    expect(new DataView(memory.buffer).getUint32(breakAt, true)).toBe(6_000_000);
    expect(within.subarray(3_000, 7_000_000).findIndex((b) => b !== 0)).toBe(-1);
    const below = dirty(6_500_000);
    expect(below.subarray(3_000, 6_500_000).findIndex((b) => b !== 0)).toBe(-1);
    expect(below[6_500_000]).toBe(5); // above the break: not written
    for (const implausible of [1_000, memory.buffer.byteLength + 8]) {
      const whole = dirty(implausible);
      expect(whole.subarray(3_000).findIndex((b) => b !== 0)).toBe(-1);
    }
  });
});
