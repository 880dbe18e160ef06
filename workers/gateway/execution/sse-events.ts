import type { SSEStreamingApi } from "hono/streaming";
import type { ExecutionEvents } from "./events";
import { ProgressMeter, splitLogLine } from "./progress";

/**
 * An execution's events as server-sent events for POST /v1/execute with `Accept: text/event-stream`:
 * `progress` { progress, message } at most 4 a second, `log` { level, text } per console line,
 * `approval` { tool, id } when a call waits for an operator (POST /admin/approvals/{id}); the route
 * ends the stream with one `result` event.
 */
export class SseEvents implements ExecutionEvents {
  readonly #meter: ProgressMeter;
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(private readonly stream: SSEStreamingApi) {
    this.#meter = new ProgressMeter((progress, message) => this.emit("progress", { progress, message }));
  }

  callFinished(name: string, finished: number): void {
    this.#meter.callFinished(name, finished);
  }

  waitingForApproval(tool: string, approvalId: string): void {
    this.emit("approval", { tool, id: approvalId, decide: `POST /admin/approvals/${approvalId}` });
    this.#meter.note(`waiting for approval of ${tool}`);
  }

  log(line: string): void {
    const split = splitLogLine(line);
    this.emit("log", split);
    this.#meter.note(split.text);
  }

  /** Everything before `event` has been written, then `event`; nothing after. */
  async finish(event: string, data: unknown): Promise<void> {
    this.#meter.close();
    this.emit(event, data);
    this.#closed = true;
    await this.#chain;
  }

  private emit(event: string, data: unknown): void {
    if (this.#closed) return;
    this.#chain = this.#chain
      .then(() => this.stream.writeSSE({ event, data: JSON.stringify(data) }))
      .catch(() => {});
  }
}
