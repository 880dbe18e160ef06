/** At most this many progress reports a second (contract: 4). */
const PROGRESS_EVERY_MS = 250;
const MESSAGE_CHARS = 200;

/**
 * An execution's progress as its client sees it: `progress` counts the tool calls finished and must
 * grow with every report, so an event that finishes no call (a log line, a wait for approval) moves
 * it halfway to the next whole number. Reports go out at most every PROGRESS_EVERY_MS, the latest
 * state winning; what is pending when the execution ends is dropped (the result says it all).
 */
export class ProgressMeter {
  #sent = 0;
  #progress = 0;
  #message = "";
  #lastAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(private readonly report: (progress: number, message: string) => void) {}

  callFinished(name: string, finished: number): void {
    this.update(Math.max(finished, this.#progress), `${name} finished`);
  }

  /** Something happened that finished no call. */
  note(message: string): void {
    const next = Math.floor(this.#progress) + 1;
    this.update(this.#progress + (next - this.#progress) / 2, message);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  private update(progress: number, message: string): void {
    if (this.#closed) return;
    this.#progress = progress;
    this.#message = message.length > MESSAGE_CHARS ? `${message.slice(0, MESSAGE_CHARS - 1)}…` : message;
    const wait = this.#lastAt + PROGRESS_EVERY_MS - Date.now();
    if (wait <= 0) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.#timer = undefined;
    if (this.#closed || this.#progress <= this.#sent) return;
    this.#sent = this.#progress;
    this.#lastAt = Date.now();
    this.report(this.#progress, this.#message);
  }
}

/** A console line (`[warn] text`) as its level and text. */
export function splitLogLine(line: string): { level: string; text: string } {
  const close = line.startsWith("[") ? line.indexOf("] ") : -1;
  return close > 1
    ? { level: line.slice(1, close), text: line.slice(close + 2) }
    : { level: "log", text: line };
}
