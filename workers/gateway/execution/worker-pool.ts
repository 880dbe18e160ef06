import { PYTHON_VERSION } from "../../sandbox/python/dist/manifest.mjs";
import { QUICKJS_VERSION } from "../../sandbox/quickjs/dist/manifest.mjs";

/** Per-isolate state: executions this gateway isolate has running in each warm worker, by id. */
const running = new Map<string, number>();

/** One execution's place in a team's pool: the warm worker's id, given back with `release`. */
export interface PoolSlot {
  /** `<team>:<engine version>:<slot>`: the Dynamic Worker's id (its code is the engine's, fixed per version) */
  id: string;
  release(): void;
}

/** Warm workers run one language each: JavaScript in QuickJS, or Python (pyodide). */
export type PoolLanguage = "javascript" | "python";

export function warmWorkerId(team: string, slot: number, language: PoolLanguage): string {
  return `${team}:${language === "python" ? PYTHON_VERSION : QUICKJS_VERSION}:${slot}`;
}

/**
 * The team's warm worker with the fewest executions from this isolate in it, the lowest slot on
 * ties: an idle team uses slot 0 only, so the Dynamic Workers a day creates grow with concurrency,
 * never with the number of executions. A worker queues what does not fit in its memory itself.
 */
export function takeSlot(team: string, slots: number, language: PoolLanguage): PoolSlot {
  let best = 0;
  let fewest = Number.POSITIVE_INFINITY;
  for (let slot = 0; slot < slots && fewest > 0; slot++) {
    const n = running.get(warmWorkerId(team, slot, language)) ?? 0;
    if (n < fewest) {
      fewest = n;
      best = slot;
    }
  }
  const id = warmWorkerId(team, best, language);
  running.set(id, (running.get(id) ?? 0) + 1);
  let released = false;
  return {
    id,
    release() {
      if (released) return;
      released = true;
      const n = (running.get(id) ?? 1) - 1;
      if (n > 0) running.set(id, n);
      else running.delete(id);
    },
  };
}
