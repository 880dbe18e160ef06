import { detectPii } from "./detect";

/** Longer than any value the detectors take (an email is at most 254 characters). */
const WINDOW = 256;

/**
 * Where to cut `text` at or before `at` without splitting a value the detectors would take: a
 * half-cut email or phone is no longer recognised, so tokenization would let its head through.
 */
export function cutOutsidePii(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return at;
  const from = Math.max(0, at - WINDOW);
  for (const match of detectPii(text.slice(from, Math.min(text.length, at + WINDOW)))) {
    const start = from + match.start;
    if (start < at && at < from + match.end) return start;
  }
  return at;
}
