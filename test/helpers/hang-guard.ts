/**
 * The wall-clock bound of tests whose point is that something ends (a hung upstream, a spinning
 * loop, a catastrophic pattern) rather than how fast: those never end or take hours, while a
 * starved CI machine took up to 7 s for what a laptop does in 0.3 s. Within a test's own timeout.
 */
export const HANG_GUARD_MS = 20_000;
