/**
 * Items queued per team in this isolate and sent in batches: a batch is sent once, either by whoever
 * takes it first (`take`, to send it along with a call of its own) or by the request that opened it,
 * so a batch never waits on another request's I/O: `windowMs` after it opened, or, with a `maxAgeMs`
 * longer than that, once a whole window passes without a new item or the batch is `maxAgeMs` old (a
 * steady stream shares one send per `maxAgeMs`; a lone item still goes after one window). A full
 * batch (`maxItems`) is closed and a new one opened.
 */
export class TeamBatches<T> {
  readonly #open = new Map<string, T[]>();
  readonly #taken = new WeakSet<T[]>();

  constructor(
    private readonly windowMs: number,
    private readonly maxItems: number,
    private readonly maxAgeMs = windowMs,
  ) {}

  /**
   * Queues `item`. When it opens a batch, returns the promise that sends that batch with `send` after
   * the window (for the caller's `waitUntil`); `send` must not throw.
   */
  add(team: string, item: T, send: (batch: T[]) => Promise<void>): Promise<void> | undefined {
    const batch = this.#open.get(team);
    if (batch && batch.length < this.maxItems) {
      batch.push(item);
      return undefined;
    }
    const fresh = [item];
    this.#open.set(team, fresh);
    return this.#sendLater(team, fresh, send);
  }

  /** The team's open batch, now the caller's to send; [] when none. */
  take(team: string): T[] {
    const batch = this.#open.get(team);
    if (!batch) return [];
    this.#open.delete(team);
    this.#taken.add(batch);
    return batch;
  }

  async #sendLater(team: string, batch: T[], send: (batch: T[]) => Promise<void>): Promise<void> {
    const opened = Date.now();
    let seen = 0;
    while (batch.length > seen && this.#open.get(team) === batch && Date.now() - opened < this.maxAgeMs) {
      seen = batch.length;
      await new Promise((resolve) => setTimeout(resolve, this.windowMs));
    }
    if (this.#open.get(team) === batch) this.#open.delete(team);
    if (!this.#taken.has(batch)) await send(batch);
  }
}
