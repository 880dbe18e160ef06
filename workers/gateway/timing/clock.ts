/** How many extra times a phase runs for the bench (`X-Phase-Repeat: compile:10,load:5`), at most this. */
const MAX_REPEAT = 50;

/**
 * Wall time of the phases of one request, for `npm run bench` (PHASE_TIMING). `repeat` runs a
 * phase's work that many extra times first, so the CPU one phase costs can be measured from the
 * process's CPU time. Only made for operator requests (see middleware.ts); tenants never see it.
 */
export class PhaseClock {
  readonly #started = performance.now();
  readonly #phases: Array<{ name: string; ms: number }> = [];

  constructor(private readonly repeats: ReadonlyMap<string, number>) {}

  static parseRepeats(header: string | undefined): Map<string, number> {
    const out = new Map<string, number>();
    for (const part of (header ?? "").split(",")) {
      const [name, count] = part.trim().split(":");
      const n = Number(count);
      if (name && /^[a-z_]{1,32}$/.test(name) && Number.isInteger(n) && n > 0)
        out.set(name, Math.min(n, MAX_REPEAT));
    }
    return out;
  }

  extra(name: string): number {
    return this.repeats.get(name) ?? 0;
  }

  add(name: string, ms: number): void {
    this.#phases.push({ name, ms });
  }

  /**
   * Runs `work` (plus its bench repeats first, unless it may run only once: it reads the body or
   * serves the request) and records its wall time as `name`.
   */
  async time<T>(name: string, work: () => Promise<T> | T, repeatable = true): Promise<T> {
    for (let i = repeatable ? this.extra(name) : 0; i > 0; i--) await work();
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      this.add(name, performance.now() - t0);
    }
  }

  /** `Server-Timing` value: every phase in order, then the whole request as `total`. */
  header(): string {
    const total = performance.now() - this.#started;
    return [...this.#phases, { name: "total", ms: total }]
      .map((p) => `${p.name};dur=${p.ms.toFixed(3)}`)
      .join(", ");
  }
}

/** `clock.time(name, work)` when there is a clock, else just `work()`. */
export function timed<T>(
  clock: PhaseClock | undefined,
  name: string,
  work: () => Promise<T> | T,
  repeatable = true,
): Promise<T> | T {
  return clock ? clock.time(name, work, repeatable) : work();
}
