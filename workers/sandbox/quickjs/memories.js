// Linear memories for the interpreters of one warm worker. A new WebAssembly.Memory is costly where
// page faults are (its pages are mapped on first touch, and dropped ones wait for a GC), so the keeper
// owns a few memories and hands them out again: the memory of an interpreter that is done comes back
// here, is zeroed at once and goes to the next interpreter, byte for byte what a new memory holds and
// never used by two interpreters at once. Zeroing maps every page of a memory, so it is worth it only
// for the memories the keeper goes on using: `keep` of them at most; a memory beyond those, or one that
// grew, is left to the GC unzeroed, as a new one would be.

/** What the QuickJS module imports (its memory import's minimum: 256 pages) and emscripten's default. */
const INITIAL_PAGES = 256;
const MAXIMUM_PAGES = 32_768;
export const INITIAL_BYTES = INITIAL_PAGES * 65_536;

/** @param {number} keep how many memories the keeper owns at most */
export function memoryKeeper(keep) {
  /** @type {WeakSet<WebAssembly.Memory>} the memories this keeper hands out again */
  const owned = new WeakSet();
  let ownedCount = 0;
  /** @type {WebAssembly.Memory[]} owned, zeroed, initial size, no interpreter's */
  const free = [];
  return {
    /** A memory no interpreter uses: an owned one, zeroed, or a new one. */
    take() {
      return free.pop() ?? new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES });
    },
    /**
     * The memory of an interpreter nothing will call again (its execution closed): zeroed now and
     * kept when the keeper owns it or can own one more, else left to the GC.
     * @param {WebAssembly.Memory} memory
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
      free.push(memory);
    },
    /** for tests: how many zeroed memories are waiting */
    get held() {
      return free.length;
    },
  };
}
