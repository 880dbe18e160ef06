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
  readonly #open = new Map<string, { items: T[]; last: number; wake?: () => void }>();
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
    if (queue && queue.items.length < this.maxItems) {
      queue.items.push(item);
      queue.last = Date.now();
      return undefined;
    }
    const fresh = { items: [item], last: Date.now() };
    this.#open.set(team, fresh);
    return this.#sendLater(team, fresh, send);
  }

  /** The team's open queue, now the caller's to send; [] when none, or when it got an item within `quietMs`. */
  take(team: string, quietMs = 0): T[] {
    const queue = this.#open.get(team);
    if (!queue || Date.now() - queue.last < quietMs) return [];
    this.#open.delete(team);
    this.#taken.add(queue.items);
    queue.wake?.(); // its opener stops waiting now, not at its timer
    return queue.items;
  }

  async #sendLater(
    team: string,
    queue: { items: T[]; wake?: () => void },
    send: (items: T[]) => Promise<void>,
  ): Promise<void> {
    const { items } = queue;
    const opened = Date.now();
    const isOpen = () => this.#open.get(team)?.items === items;
    let seen = 0;
    while (items.length > seen && isOpen() && Date.now() - opened < this.maxAgeMs) {
      seen = items.length;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.windowMs);
        queue.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    if (isOpen()) this.#open.delete(team);
    if (!this.#taken.has(items)) await send(items);
  }
}
