export type LogLevel = "debug" | "info" | "warn" | "error";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let threshold = RANK.info;

/** Lines below this level are dropped (LOG_LEVEL; under `wrangler dev` each line costs ~1 ms). */
export function setLogLevel(level: LogLevel): void {
  threshold = RANK[level];
}

/** Whether a line of `level` would be written (so work done only for it can be skipped). */
export function logs(level: LogLevel): boolean {
  return RANK[level] >= threshold;
}

/** One JSON object per line, so `wrangler tail` / Logpush can filter on any field. */
export function log(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  if (!logs(level)) return;
  const line = JSON.stringify({ ts: new Date().toISOString(), level, msg, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
