// Linear memories for the interpreters of one warm worker. Each has a hard maximum, the execution's
// memory limit (interpreterMaximumBytes): QuickJS's own limit does not bound its allocator (this
// 32-bit build has no malloc_usable_size, so QuickJS counts 8 bytes per allocation and refuses only
// one that alone passes the limit), which grows the memory until the memory refuses: without a
// maximum of our own at 2 GB, a heap bomb's ~2 GB of resident memory.
// The keeper owns a few memories and hands them out again, grown or not: the memory of an
// interpreter that is done comes back here, is set at once to the prepared interpreter's image
// (snapshot.js: its bytes, then zeros up to its allocator's break, above which nothing was written)
// or to all zeros, and goes to the next interpreter
// with the same maximum, never used by two interpreters at once. A memory keeps the wasm instance
// that used it (`machine`): the next interpreter runs in that instance, set back to the image. A
// memory left to the GC stays resident until a collection, which a warm worker whose JS heap barely
// moves does not get soon: dropping grown memories, four bombs at a time took a sandbox host from
// 169 to 393 MB over five rounds (scripts/bench/memory.mjs). So the keeper owns as many memories as
// the worker runs interpreters at once and one more (the interpreter prepared ahead), each at most
// its maximum; only a memory beyond those is left to the GC.
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
    /** @type {import("./snapshot.js").Machine | undefined} the wasm instance whose memory this is */
    this.machine = undefined;
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

/**
 * A memory's content as its runs of pages that hold something (each page 4 KB): the rest is zeros.
 * A prepared interpreter's 5.7 MB are ~0.45 MB of such runs (static data, the heap; the stack
 * between them is zeros).
 * @typedef {{ at: number, bytes: Uint8Array }[]} MemoryImage
 */

const IMAGE_PAGE = 4_096;

/** @param {WebAssembly.Memory} memory @returns {MemoryImage} */
export function imageOf(memory) {
  const words = new Uint32Array(memory.buffer);
  const all = new Uint8Array(memory.buffer);
  /** @type {MemoryImage} */
  const runs = [];
  let start = -1;
  for (let page = 0; page <= all.length; page += IMAGE_PAGE) {
    let used = false;
    for (let w = page / 4; w < (page + IMAGE_PAGE) / 4 && w < words.length && !used; w++)
      used = words[w] !== 0;
    if (used && start < 0) start = page;
    if (!used && start >= 0) {
      runs.push({ at: start, bytes: all.slice(start, page) });
      start = -1;
    }
  }
  return runs;
}

/**
 * Sets every byte of `memory` an interpreter may have written: the image's runs, zeros everywhere
 * else (all zeros without an image). With `breakAt`, the address of the word where the allocator
 * keeps its break (snapshot.js `findBreak`: the top of what it has handed out, which never moves
 * back), only bytes below the break are written: nothing writes above it, and a memory handed out
 * again was all zeros above the image when handed out (new, or set by this), so those bytes are
 * zeros still. A break that is not a plausible one (below the image's end or past the memory's
 * end: a corrupted word) sets the whole memory.
 * @param {WebAssembly.Memory} memory @param {MemoryImage} [image] @param {number} [breakAt]
 */
export function setTo(memory, image = [], breakAt) {
  const bytes = new Uint8Array(memory.buffer);
  const top = breakAt === undefined || image.length === 0 ? bytes.length : breakOf(bytes, image, breakAt);
  let end = 0;
  for (const run of image) {
    bytes.fill(0, end, run.at);
    bytes.set(run.bytes, run.at);
    end = run.at + run.bytes.length;
  }
  if (top > end) bytes.fill(0, end, top);
}

/** The break read at `breakAt` (before the image is written back), or the memory's end when implausible. */
function breakOf(
  /** @type {Uint8Array} */ bytes,
  /** @type {MemoryImage} */ image,
  /** @type {number} */ breakAt,
) {
  const last = image[image.length - 1];
  const value = new DataView(bytes.buffer).getUint32(breakAt, true);
  return value < last.at + last.bytes.length || value > bytes.length ? bytes.length : value;
}

export function memoryKeeper() {
  /** @type {WeakSet<LinearMemory>} the memories this keeper hands out again */
  const owned = new WeakSet();
  let ownedCount = 0;
  /** @type {LinearMemory[]} owned, set to the image or zeroed, no interpreter's */
  const free = [];
  return {
    /**
     * A memory no interpreter uses for an execution whose limit is `memoryBytes`: an owned one of
     * that maximum (set to the image or zeroed: `giveBack`), or a new one.
     * @param {number} memoryBytes
     * @returns {LinearMemory}
     */
    take(memoryBytes) {
      const maximum = interpreterMaximumBytes(memoryBytes) / PAGE;
      const at = free.findIndex((memory) => memory.maximum === maximum);
      return (at >= 0 && free.splice(at, 1)[0]) || new LinearMemory(maximum);
    },
    /**
     * The memory of an interpreter nothing will call again (its execution closed): set now to
     * `image` followed by zeros (all zeros without one) and kept when the keeper owns it or can own
     * one more of the `keep` it may, else left to the GC. An aborted instance is not kept with it.
     * @param {LinearMemory} memory
     * @param {number} keep how many memories the keeper may own
     * @param {MemoryImage} [image] what a prepared interpreter's memory holds
     * @param {number} [breakAt] where its allocator keeps its break (`setTo`)
     */
    giveBack(memory, keep, image, breakAt) {
      if (!owned.has(memory)) {
        if (ownedCount >= keep) return;
        owned.add(memory);
        ownedCount++;
      }
      // An aborted instance's memory is set whole: its words are not to be trusted.
      setTo(memory, image, memory.machine?.aborted ? undefined : breakAt);
      memory.full = false;
      // All zeros, the memory no longer holds its instance's static data: the instance goes.
      if (!image || memory.machine?.aborted) memory.machine = undefined;
      free.push(memory);
    },
    /** for tests: how many memories are waiting */
    get held() {
      return free.length;
    },
  };
}
