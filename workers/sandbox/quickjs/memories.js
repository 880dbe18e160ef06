// Linear memories for the interpreters of one warm worker. Each has a hard maximum, the execution's
// memory limit beyond a fresh interpreter's memory (interpreterMaximumBytes): QuickJS's own memory
// limit does not bound it (in this 32-bit build malloc_usable_size is missing, so QuickJS counts 8
// bytes per allocation and refuses only one that alone passes the limit), so the allocator grows the
// memory until the wasm memory refuses to grow: without a maximum of our own, at 2 GB.
// A new WebAssembly.Memory is costly where page faults are (its pages are mapped on first touch, and
// dropped ones wait for a GC), so the keeper owns a few memories and hands them out again: the memory
// of an interpreter that is done comes back here, is zeroed at once and goes to the next interpreter
// with the same maximum, byte for byte what a new memory holds and never used by two interpreters at
// once. Zeroing maps every page of a memory, so it is worth it only for the memories the keeper goes
// on using: `keep` of them at most; a memory beyond those, or one that grew, is left to the GC
// unzeroed, as a new one would be.
import { interpreterMaximumBytes, QUICKJS_LIMITS } from "../../../shared/contract/engine";

const PAGE = 65_536;
/** What the QuickJS module imports (its memory import's minimum: 256 pages) and emscripten's default. */
export const INITIAL_BYTES = QUICKJS_LIMITS.interpreterBaseBytes;
const INITIAL_PAGES = INITIAL_BYTES / PAGE;

/**
 * A linear memory that knows whether its last growth was refused: the allocator asked for more than
 * the maximum (emscripten's resize tries a larger size first, then smaller ones: a smaller one that
 * succeeds clears it), so the interpreter's malloc failed.
 */
class LinearMemory extends WebAssembly.Memory {
  /** @param {number} maximum pages */
  constructor(maximum) {
    super({ initial: INITIAL_PAGES, maximum });
    this.maximum = maximum;
    this.full = false;
  }

  /** @param {number} delta */
  grow(delta) {
    try {
      const before = super.grow(delta);
      this.full = false;
      return before;
    } catch (err) {
      this.full = true;
      throw err;
    }
  }
}

/** @param {number} keep how many memories the keeper owns at most */
export function memoryKeeper(keep) {
  /** @type {WeakSet<LinearMemory>} the memories this keeper hands out again */
  const owned = new WeakSet();
  let ownedCount = 0;
  /** @type {LinearMemory[]} owned, zeroed, initial size, no interpreter's */
  const free = [];
  return {
    /**
     * A memory no interpreter uses for an execution whose limit is `memoryBytes`: an owned one of
     * that maximum, zeroed, or a new one.
     * @param {number} memoryBytes
     * @returns {LinearMemory}
     */
    take(memoryBytes) {
      const maximum = interpreterMaximumBytes(memoryBytes) / PAGE;
      const at = free.findIndex((memory) => memory.maximum === maximum);
      return (at >= 0 && free.splice(at, 1)[0]) || new LinearMemory(maximum);
    },
    /**
     * The memory of an interpreter nothing will call again (its execution closed): zeroed now and
     * kept when the keeper owns it or can own one more, else left to the GC.
     * @param {LinearMemory} memory
     */
    giveBack(memory) {
      const isOwned = owned.has(memory);
      if (memory.buffer.byteLength !== INITIAL_BYTES) {
        if (isOwned) {
          owned.delete(memory);
          ownedCount--;
        }
        return;
      }
      if (!isOwned) {
        if (ownedCount >= keep) return;
        owned.add(memory);
        ownedCount++;
      }
      new Uint8Array(memory.buffer).fill(0);
      memory.full = false;
      free.push(memory);
    },
    /** for tests: how many zeroed memories are waiting */
    get held() {
      return free.length;
    },
  };
}
