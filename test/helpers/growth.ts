import { expect } from "vitest";

const SMALL = 64 * 1024;
const BIG = 4 * SMALL;
/**
 * Below this, the big input passes whatever the ratio: a quadratic scan of 256 KB takes tens of
 * seconds, while a linear one on a starved CI machine took up to 1.5 s and its ratio was noise.
 */
const FAST_MS = 3_000;
/** Measurements taken before a failure counts: a real quadratic scan fails every one. */
const ATTEMPTS = 3;
/** Linear growth is about 4 (4 times the input), quadratic 16; a stall on a busy machine adds noise. */
const MAX_RATIO = 10;

/**
 * Asserts that `scan` grows at most linearly with its input: `input(n)` builds n characters, and
 * 256 KB may take at most MAX_RATIO times what 64 KB takes, in one of ATTEMPTS measurements.
 * Relative, so a slow machine does not fail it, where a fixed number of ms would.
 */
export function expectLinearScan(input: (chars: number) => string, scan: (text: string) => unknown): void {
  const small = input(SMALL);
  const big = input(BIG);
  let times = measure(small, big, scan);
  for (let attempt = 1; attempt < ATTEMPTS && !linear(times); attempt++) times = measure(small, big, scan);
  const { smallMs, bigMs } = times;
  if (linear(times)) return;
  expect(bigMs, `256 KB took ${bigMs.toFixed(0)} ms, 64 KB ${smallMs.toFixed(0)} ms`).toBeLessThan(
    MAX_RATIO * Math.max(smallMs, 1),
  );
}

interface Times {
  smallMs: number;
  bigMs: number;
}

function linear({ smallMs, bigMs }: Times): boolean {
  return bigMs < FAST_MS || bigMs < MAX_RATIO * Math.max(smallMs, 1);
}

/** Each size's best of three runs taken in turn, so a stall of the machine hits both alike. */
function measure(small: string, big: string, scan: (text: string) => unknown): Times {
  let smallMs = Number.POSITIVE_INFINITY;
  let bigMs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    let t0 = performance.now();
    scan(small);
    smallMs = Math.min(smallMs, performance.now() - t0);
    t0 = performance.now();
    scan(big);
    bigMs = Math.min(bigMs, performance.now() - t0);
  }
  return { smallMs, bigMs };
}
