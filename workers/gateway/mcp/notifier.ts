import type { LoggingLevel, ProgressToken, ServerNotification } from "@modelcontextprotocol/server";
import type { ExecutionEvents } from "../execution/events";
import { ProgressMeter, splitLogLine } from "../execution/progress";

/** MCP's logging levels, least severe first (specification, "Logging"). */
const LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];
/** The result's `[level]` prefixes as MCP logging levels. */
const LEVEL_OF: Record<string, LoggingLevel> = {
  debug: "debug",
  log: "info",
  info: "info",
  warn: "warning",
  error: "error",
};

/** `value` as an MCP logging level, or undefined. */
export function levelOf(value: unknown): LoggingLevel | undefined {
  return LEVELS.find((level) => level === value);
}

export interface NotifierOptions {
  /** the execute's `_meta.progressToken`: progress notifications when set */
  progressToken?: ProgressToken | undefined;
  /** the session's logging/setLevel: console lines at or above it as notifications/message */
  logLevel?: LoggingLevel | undefined;
}

/**
 * An execution's events as MCP notifications on its request's stream: notifications/progress
 * (execution/progress.ts: calls finished, at most 4 a second) and console lines at or above the
 * session's level as notifications/message, as they come, in order.
 */
export class McpNotifier implements ExecutionEvents {
  readonly #meter: ProgressMeter | undefined;
  readonly #threshold: number;
  #closed = false;

  constructor(
    private readonly send: (notification: ServerNotification) => Promise<void>,
    options: NotifierOptions,
  ) {
    const { progressToken, logLevel } = options;
    this.#threshold = logLevel === undefined ? Number.POSITIVE_INFINITY : LEVELS.indexOf(logLevel);
    this.#meter =
      progressToken === undefined
        ? undefined
        : new ProgressMeter((progress, message) =>
            this.emit({ method: "notifications/progress", params: { progressToken, progress, message } }),
          );
  }

  callFinished(name: string, finished: number): void {
    this.#meter?.callFinished(name, finished);
  }

  waitingForApproval(tool: string): void {
    this.#meter?.note(`waiting for approval of ${tool}`);
  }

  log(line: string): void {
    const { level, text } = splitLogLine(line);
    const mcpLevel = LEVEL_OF[level] ?? "info";
    if (LEVELS.indexOf(mcpLevel) >= this.#threshold && !this.#closed) {
      this.emit({
        method: "notifications/message",
        params: { level: mcpLevel, logger: "console", data: text },
      });
    }
    this.#meter?.note(text);
  }

  /** The execution ended: nothing more is sent. */
  close(): void {
    this.#closed = true;
    this.#meter?.close();
  }

  private emit(notification: ServerNotification): void {
    if (!this.#closed) this.send(notification).catch(() => {});
  }
}
