/**
 * Sizes both sides of the sandbox boundary need, without zod: the isolate runtime
 * (workers/sandbox/runtime/*.js, bundled by scripts/build-sandbox.mjs) imports them from here, and
 * the gateway enforces them with the schemas in sandbox.ts and session.ts.
 */

/** The most an error message the gateway writes for an agent may hold (what failed, what to change). */
export const MAX_ERROR_MESSAGE_CHARS = 300;
/**
 * Error fields as the isolate clips them; the sandbox host refuses longer ones. `data` (an error's own
 * fields, or a thrown non-Error) counts the characters of its JSON text.
 */
export const ERROR_CAPS = { name: 200, message: 1_000, stack: 4_000, data: 500 } as const;

/**
 * Characters of a returned value the sandbox converts to JSON before cutting it to fit; beyond,
 * the result's whole size is given as a lower bound.
 */
export const RESULT_WALK_CHARS = 5_000_000;

/** Cuts a result's `truncation` lists (outermost first); beyond them only their number is given. */
export const MAX_CUTS = 5;

/** Warnings one result carries, and the characters of each. */
export const WARNING_CAPS = { count: 6, chars: 300 } as const;

/**
 * What an `execute` answer (its JSON text: result, logs, error, stats, warnings, truncation) may
 * hold beyond EXEC_MAX_OUTPUT_CHARS, which result, logs and the error's stack share.
 */
export const ANSWER_OVERHEAD_CHARS = 5_000;
/** Skills with their own `stats.calls` entry in one result (the skills' runs the sandbox reports). */
export const MAX_SKILL_RUNS = 64;

/** Log lines one execution may keep (beyond the character budget, calls are only counted). */
export const MAX_LOG_LINES = 10_000;

/** What one session's state and workspace calls may carry. */
export const SESSION_LIMITS = {
  /** one workspace file, in bytes */
  maxFileBytes: 10 * 1024 * 1024,
  maxPathChars: 1_024,
  maxSegmentChars: 255,
  maxKeyChars: 512,
  /** one state value's JSON text */
  maxStateValueChars: 1_000_000,
  /** entries `session.history()` keeps */
  maxHistory: 100,
  /** names returned by one `state.keys()` / files by one `workspace.list()` */
  maxListed: 10_000,
} as const;

/** One `bridge.log` call (live console lines): lines it carries and the characters of its JSON text. */
export const LIVE_LOG_CAPS = { lines: 200, jsonChars: 64_000 } as const;
