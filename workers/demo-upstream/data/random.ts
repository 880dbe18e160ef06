/** mulberry32: a tiny, fast, seeded PRNG; the same seed always yields the same sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for the `n`th item derived from a base seed, so items can be (re)generated independently. */
export function deriveSeed(seed: number, n: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ n;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Helpers over a seeded PRNG. */
export class Random {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** [0, 1) */
  float(): number {
    return this.next();
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A string of `count` random decimal digits. */
  digits(count: number): string {
    let out = "";
    for (let i = 0; i < count; i++) out += Math.floor(this.next() * 10);
    return out;
  }
}

/** A fixed weighted choice, prepared once: each pick is one draw and a short scan. */
export class Weighted<T> {
  private readonly items: readonly T[];
  private readonly bounds: Float64Array;

  constructor(items: readonly T[], weight: (item: T) => number) {
    this.items = items;
    const weights = items.map(weight);
    const total = weights.reduce((sum, w) => sum + w, 0);
    this.bounds = new Float64Array(items.length);
    let sum = 0;
    weights.forEach((w, i) => {
      sum += w;
      this.bounds[i] = sum / total;
    });
  }

  /** Over the keys of a `{ key: weight }` record. */
  static of<K extends string>(weights: Readonly<Record<K, number>>): Weighted<K> {
    const keys = Object.keys(weights) as K[];
    return new Weighted(keys, (k) => weights[k]);
  }

  pick(rng: Random): T {
    const r = rng.float();
    const last = this.items.length - 1;
    let i = 0;
    while (i < last && r >= this.bounds[i]!) i++;
    return this.items[i]!;
  }
}
