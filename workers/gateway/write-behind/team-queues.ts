/**
 * Write-behind queues, one open queue per team in this isolate (audit entries, returned leases). A
 * queue is sent once, either by whoever takes it first (`take`, to send it along with a call of its
 * own) or by the request that opened it, so a queue never waits on another request's I/O:
 * `windowMs` after it opened, or, with a `maxAgeMs` longer than that, once a whole window passes
 * without a new item or the queue is `maxAgeMs` old (a steady stream shares one send per
 * `maxAgeMs`; a lone item still goes after one window). A full queue (`maxItems`) is closed and a
 * new one opened.
 */
export class TeamQueues<T> {
  readonly #open = new Map<string, T[]>();
  readonly #taken = new WeakSet<T[]>();

  constructor(
    private readonly windowMs: number,
    private readonly maxItems: number,
    private readonly maxAgeMs = windowMs,
  ) {}

  /**
   * Queues `item`. When it opens a queue, returns the promise that sends that queue with `send` after
   * the window (for the caller's `waitUntil`); `send` must not throw.
   */
  add(team: string, item: T, send: (items: T[]) => Promise<void>): Promise<void> | undefined {
    const queue = this.#open.get(team);
    if (queue && queue.length < this.maxItems) {
      queue.push(item);
      return undefined;
    }
    const fresh = [item];
    this.#open.set(team, fresh);
    return this.#sendLater(team, fresh, send);
  }

  /** The team's open queue, now the caller's to send; [] when none. */
  take(team: string): T[] {
    const queue = this.#open.get(team);
    if (!queue) return [];
    this.#open.delete(team);
    this.#taken.add(queue);
    return queue;
  }

  async #sendLater(team: string, queue: T[], send: (items: T[]) => Promise<void>): Promise<void> {
    const opened = Date.now();
    let seen = 0;
    while (queue.length > seen && this.#open.get(team) === queue && Date.now() - opened < this.maxAgeMs) {
      seen = queue.length;
      await new Promise((resolve) => setTimeout(resolve, this.windowMs));
    }
    if (this.#open.get(team) === queue) this.#open.delete(team);
    if (!this.#taken.has(queue)) await send(queue);
  }
}
