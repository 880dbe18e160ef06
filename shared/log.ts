export type LogLevel = "debug" | "info" | "warn" | "error";

/** One JSON object per line, so `wrangler tail` / Logpush can filter on any field. */
export function log(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ ts: new Date().toISOString(), level, msg, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
