// A CPython memory snapshot kept compact: its header and the runs of 4 KB pages of the memory it
// holds that are not all zeros (20 MB of memory, ~13 MB of such pages). The warm Python worker keeps
// one (warm.js) and restores each instance from it (boot.js): only those pages are written into the
// instance's new memory, so the rest stay untouched zeros that take no memory either. The instance
// the worker reuses is written back to the image, and the pages its restore changed, after each
// execution (reset.js).

const PAGE = 4_096;

/**
 * @typedef {{ header: Uint8Array, bytes: number, runs: { at: number, bytes: Uint8Array }[] }} Image
 * `header`: the snapshot's header (pyodide's magic number, build id and JS state) with no memory
 * after it; `bytes`: the memory's length; `runs`: its non-zero pages, in order.
 */

/**
 * The compact form of a whole snapshot from makeMemorySnapshot: what imageNow must equal
 * (test/e2e/python-reset-callbacks.e2e.test.ts). @param {Uint8Array} snapshot @returns {Image}
 */
export function compactImage(snapshot) {
  const headerBytes = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4)[1];
  return imageOf(snapshot.slice(0, headerBytes), snapshot.subarray(headerBytes));
}

/**
 * The image of `py` (a pyodide booted with makeSnapshot) as it is now, made without a copy of its
 * whole memory: makeMemorySnapshot sizes its bytes by `Module.HEAP8` and copies that view after the
 * header, so with an empty view there it makes the header alone; the pages are then read in place.
 * (A whole snapshot took 20 MB, and a copy of it 20 MB more, which the host process then kept.)
 * @param {{ _module: { HEAP8: Int8Array }, makeMemorySnapshot(): Uint8Array }} py @returns {Image}
 */
export function imageNow(py) {
  const M = py._module;
  const heap = M.HEAP8;
  M.HEAP8 = new Int8Array(0);
  /** @type {Uint8Array} */
  let header;
  try {
    header = py.makeMemorySnapshot();
  } finally {
    // a memory that grew meanwhile has set a view of its own
    if (M.HEAP8.length === 0) M.HEAP8 = heap;
  }
  return imageOf(header, new Uint8Array(M.HEAP8.buffer));
}

/**
 * The image of `memory` (read in place, its non-zero pages copied) with a snapshot's `header`.
 * @param {Uint8Array} header @param {Uint8Array} memory @returns {Image}
 */
function imageOf(header, memory) {
  const words = wordsOf(memory);
  return { header, bytes: memory.length, runs: runsWhere(memory, (at) => !zeros(words, at)) };
}

/**
 * Writes the image's memory into `heap` and zeros after it: a page outside the runs is written only
 * if it holds something (what instantiating CPython wrote, its static data; what the instance that
 * had this memory before left), so pages never used stay untouched.
 * @param {Uint8Array} heap @param {Image} image
 */
export function writeImage(heap, image) {
  const words = wordsOf(heap);
  let end = 0;
  for (const run of [...image.runs, { at: heap.length, bytes: new Uint8Array(0) }]) {
    for (let at = end; at < run.at; at += PAGE) if (!zeros(words, at)) heap.fill(0, at, at + PAGE);
    heap.set(run.bytes, run.at);
    end = run.at + run.bytes.length;
  }
}

/**
 * The pages of `heap` that differ from what writeImage(heap, image) writes, as runs: writing the
 * image and then these gives `heap` back as it is now (reset.js keeps a restored instance's memory
 * so, a few pages beside the snapshot's image).
 * @param {Uint8Array} heap @param {Image} image @returns {Image["runs"]}
 */
export function pagesBeside(heap, image) {
  const mine = wordsOf(heap);
  let r = 0;
  /** @type {BigUint64Array | undefined} the words of image.runs[r] */
  let theirs;
  return runsWhere(heap, (at) => {
    while (r < image.runs.length && image.runs[r].at + image.runs[r].bytes.length <= at) {
      r++;
      theirs = undefined;
    }
    const run = image.runs[r];
    // outside the image's runs writeImage leaves zeros
    if (!run || at < run.at) return !zeros(mine, at);
    theirs ??= wordsOf(run.bytes);
    for (let i = 0, from = (at - run.at) / 8; i < PAGE / 8; i++)
      if (mine[at / 8 + i] !== theirs[from + i]) return true;
    return false;
  });
}

/**
 * The runs of `memory`'s 4 KB pages for which `kept(at)` holds, copied.
 * @param {Uint8Array} memory @param {(at: number) => boolean} kept @returns {Image["runs"]}
 */
function runsWhere(memory, kept) {
  /** @type {Image["runs"]} */
  const runs = [];
  let start = -1;
  for (let at = 0; at <= memory.length; at += PAGE) {
    const keep = at < memory.length && kept(at);
    if (keep && start < 0) start = at;
    if (!keep && start >= 0) {
      runs.push({ at: start, bytes: memory.slice(start, at) });
      start = -1;
    }
  }
  return runs;
}

/** `bytes` (whole 4 KB pages, 8-byte aligned) as 64-bit words: a page is checked in 512 reads. @param {Uint8Array} bytes */
function wordsOf(bytes) {
  return new BigUint64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8);
}

/** Whether the 4 KB page at byte `at` (a multiple of 4 KB) is all zeros. @param {BigUint64Array} words @param {number} at */
function zeros(words, at) {
  for (let i = at / 8, end = i + PAGE / 8; i < end; i++) if (words[i] !== 0n) return false;
  return true;
}
